CREATE TABLE "delivery_provider_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_shaping" (
	"provider" text NOT NULL,
	"sending_domain" text NOT NULL,
	"paused_at" timestamp with time zone,
	"paused_until" timestamp with time zone,
	"paused_by" text,
	"pause_reason" text,
	"rate_per_minute" double precision,
	"replies" integer DEFAULT 0 NOT NULL,
	"deferrals" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "delivery_shaping_provider_sending_domain_pk" PRIMARY KEY("provider","sending_domain")
);
