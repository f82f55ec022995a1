/**
 * Table types for Kysely. Column types are the common ground of SQLite and PostgreSQL: text, integer
 * (booleans as 0/1) and JSON stored as text, so one migration set and one query set serve both.
 */
export interface BusinessTable {
  singleton: number;
  doc: string;
  content_hash: string;
  updated_at: string;
}

export interface ReviewsTable {
  id: string;
  date: string;
  rating: number;
  verified: number;
  hidden: number;
  doc: string;
  content_hash: string;
  updated_at: string;
}

export interface DataVersionTable {
  singleton: number;
  version: number;
  changed_at: string;
}

export interface Database {
  business: BusinessTable;
  reviews: ReviewsTable;
  data_version: DataVersionTable;
}
