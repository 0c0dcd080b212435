// GET /api/starter-clients/{language}.zip: one starter client's folder as a zip (lib/server/starter-clients).
import { z } from "zod";
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/starter-clients/[file]"];

const ZIP_NAME = z.string().regex(/^([a-z]{1,32})\.zip$/);

// Public, like the OpenAPI documents: an integrator's CI downloads a client without a session.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async ({ request, root }) => {
    const name = ZIP_NAME.safeParse(new URL(request.url).pathname.split("/")[3] ?? "");
    if (!name.success)
      throw new ApiError("not_found", "Starter clients are served as /api/starter-clients/{language}.zip.");
    const { zip, fileName } = await (await root.starterClients()).zip(name.data.slice(0, -".zip".length));
    return new Response(zip as Uint8Array<ArrayBuffer>, {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${fileName}"`,
        "Content-Length": String(zip.byteLength),
      },
    });
  }),
});
