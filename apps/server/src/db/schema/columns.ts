/** Column types Drizzle has no builder for, shared by the schema files. */
import { customType } from 'drizzle-orm/pg-core';

/** Raw bytes (PostgreSQL `bytea`): PGlite reads them as a Uint8Array, pg as a Buffer (one too). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
