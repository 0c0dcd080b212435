CREATE TABLE "user_suspensions" (
	"user_id" text PRIMARY KEY NOT NULL,
	"until" timestamp (3) with time zone NOT NULL,
	"reason" text,
	"suspended_by" text NOT NULL,
	"suspended_at" timestamp (3) with time zone NOT NULL
);
