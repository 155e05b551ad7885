/**
 * The back office's side of the console's contract (core/backoffice/): its answers are built against the declared
 * views there (`satisfies` at each route, declared return types on the view functions), and its body schemas are
 * checked here to take the bodies the console sends, so neither side can drift without a compile error.
 */
import type { z } from 'zod';

/**
 * `schema` as it is, checked at compile time to take every `Sent` (core/backoffice's declared body): a field it
 * requires that `Sent` may lack, or of another type, fails to compile here.
 */
export const taking =
  <Sent>() =>
  <Schema extends z.ZodType>(schema: Schema & ([Sent] extends [z.input<Schema>] ? unknown : { takesConsoleBody: Sent })): Schema =>
    schema;
