// A converted stepfile as YAML text, first line the editor schema modeline
// the catalog's entries carry (`# yaml-language-server: $schema=...`), here
// with the path from where the file is written to the schema the installed
// package ships (schema/stepfile.schema.json), since the file lives outside it.
import { relative } from "node:path";
import { stringify } from "yaml";

export function stepfileText(stepfile: object, schemaPath?: string): string {
  const body = stringify(stepfile, { lineWidth: 0, aliasDuplicateObjects: false });
  return schemaPath === undefined ? body : `# yaml-language-server: $schema=${schemaPath}\n${body}`;
}

/** The modeline's path from the output folder to the schema file, with forward slashes. */
export function schemaPathFrom(outDir: string, schemaFile: string): string {
  const path = relative(outDir, schemaFile).split("\\").join("/");
  return path.startsWith(".") ? path : `./${path}`;
}
