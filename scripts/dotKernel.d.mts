/** The base64 of src/core/models/dotKernel.wat assembled (scripts/dotKernel.mjs). */
export function assembleDotKernel(): Promise<string>;
