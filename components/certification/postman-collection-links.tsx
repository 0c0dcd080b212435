"use client";

import { environmentLabel } from "@/lib/client/environments";
import { useSession } from "@/lib/client/use-session-api";
import { Panel } from "@/components/ui/panel";

const linkClass = "font-medium text-accent underline";

/** The specification's checks as a Postman collection, per configured environment, for testers who run newman. */
export function PostmanCollectionLinks() {
  const { data: session } = useSession();
  const environments = session?.environments ?? [];
  return (
    <Panel
      title="Run these checks in Postman or newman"
      titleId="postman-collection"
      description="A Postman v2.1 collection of the four operations whose tests assert what the specification promises. Fill in client_id and client_secret, or pass them to newman."
    >
      <div className="space-y-2 text-sm text-body">
        <p className="flex flex-wrap gap-x-4 gap-y-1">
          {environments.map(({ name }) => (
            <a
              key={name}
              className={linkClass}
              href={`/api/postman-collection.json?environment=${name}`}
              download={`card-services-${name}.postman_collection.json`}
            >
              {`Postman collection (${environmentLabel(name)})`}
            </a>
          ))}
        </p>
        <p>
          <code className="font-mono text-xs">
            {`newman run card-services-${environments[0]?.name ?? "embedded"}.postman_collection.json --env-var client_id=… --env-var client_secret=…`}
          </code>
        </p>
      </div>
    </Panel>
  );
}
