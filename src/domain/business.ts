import { z } from 'zod';
import { isOpeningHours, suggestOpeningHours } from './opening-hours.js';

/** A catalog id: lower-case, URL-safe, stable. */
export const CatalogIdSchema = z.string().min(1).max(100);

export const ServiceSchema = z.object({
  id: CatalogIdSchema,
  name: z.string().min(1),
  description: z.string().nullable().default(null),
  aliases: z.array(z.string().min(1)).default([]),
});
export type Service = z.infer<typeof ServiceSchema>;

export const TechnicianSchema = z.object({
  id: CatalogIdSchema,
  name: z.string().min(1),
  role: z.string().nullable().default(null),
  aliases: z.array(z.string().min(1)).default([]),
});
export type Technician = z.infer<typeof TechnicianSchema>;

export const ServiceAreaSchema = z.object({
  id: CatalogIdSchema,
  name: z.string().min(1),
  aliases: z.array(z.string().min(1)).default([]),
});
export type ServiceArea = z.infer<typeof ServiceAreaSchema>;

export const AddressSchema = z.object({
  street: z.string().nullable().default(null),
  locality: z.string().nullable().default(null),
  region: z.string().nullable().default(null),
  postal_code: z.string().nullable().default(null),
  country: z.string().nullable().default(null),
});

export const GeoSchema = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});

/** The business metadata (contract §2), served in /reviews.json and by MCP get_business. */
export const BusinessSchema = z.object({
  id: CatalogIdSchema,
  name: z.string().min(1),
  description: z.string().nullable().default(null),
  url: z.string().nullable().default(null),
  telephone: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
  address: AddressSchema.nullable().default(null),
  geo: GeoSchema.nullable().default(null),
  categories: z.array(z.string()).default([]),
  // schema.org openingHours form, e.g. "Mo-Fr 08:00-18:00".
  opening_hours: z.array(z.string()).default([]),
  services: z.array(ServiceSchema).default([]),
  technicians: z.array(TechnicianSchema).default([]),
  service_areas: z.array(ServiceAreaSchema).default([]),
  same_as: z.array(z.string()).default([]),
  /** Insights taxonomy id (insights.md); `home-services` when absent. */
  taxonomy: z.string().optional(),
  /**
   * True for the bundled demo business only (set by the server's demo loader, never by a file): pages,
   * the start-up message and machines reading `/reviews.json` can tell invented data from a real business.
   */
  demo: z.literal(true).optional(),
});
export type Business = z.infer<typeof BusinessSchema>;

/** A link a page may publish: http or https only, so no `javascript:` or `data:` URL reaches an `href`. */
const WebUrlSchema = z
  .string()
  .refine((s) => /^https?:\/\/[^\s/]/i.test(s) && URL.canParse(s), { message: 'must be an http or https URL' });

const OpeningHoursSchema = z.string().superRefine((value, ctx) => {
  if (isOpeningHours(value)) return;
  const suggestion = suggestOpeningHours(value);
  ctx.addIssue({
    code: 'custom',
    message: `${JSON.stringify(value)} is not in schema.org form (two-letter days, 24-hour times: "Mo-Fr 08:00-17:00", "Sa 09:00-12:00")${suggestion ? `; write "${suggestion}"` : ''}`,
  });
});

/**
 * The business as an import file gives it: the stored shape, with what a page or JSON-LD would publish
 * checked on the way in (links are http(s), hours are schema.org's form). Stored businesses are read with
 * `BusinessSchema`, so a row written before these checks still loads.
 */
export const ImportBusinessSchema = BusinessSchema.omit({ demo: true }).extend({
  url: WebUrlSchema.nullable().default(null),
  same_as: z.array(WebUrlSchema).default([]),
  opening_hours: z.array(OpeningHoursSchema).default([]),
});

/** The business served before any has been imported: a placeholder so every endpoint still answers. */
export const EMPTY_BUSINESS: Business = BusinessSchema.parse({ id: 'unknown', name: 'Unnamed business' });
