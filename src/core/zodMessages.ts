// zod's English messages ("Invalid input: expected number, received string", "Unrecognized key: "x""), loaded
// once for the whole process. `zod/mini` has no locale of its own (every issue would read "Invalid input"),
// and these messages reach users: SchemaError (http/request.ts), input-file request options
// (input/inputFile.ts), the profiles setting (config/profileSettings.ts), dropped webview messages, and the
// emulator's 400s and config errors. Imported for its side effect by every module that turns a zod issue into
// text. Only `en` is bundled (~3 KB minified); `z.locales.en()` through the namespace would pull in every locale.
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());
