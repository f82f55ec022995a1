import { z } from 'zod';

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
});
export type Business = z.infer<typeof BusinessSchema>;

/** The business served before any has been imported: a placeholder so every endpoint still answers. */
export const EMPTY_BUSINESS: Business = BusinessSchema.parse({ id: 'unknown', name: 'Unnamed business' });
