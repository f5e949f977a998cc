// The text TypeScript's own rename makes of one file (scripts/rename-sweep --locals):
//   TS_ORACLE_LIB=<typescript 5.x package dir> node ts-rename-oracle.js FILE LINE COL NEW
const fs = require("fs"), path = require("path");
const ts = require(process.env.TS_ORACLE_LIB);
const [file, line, col, name] = process.argv.slice(2);
const text = fs.readFileSync(file, "utf8");
const host = {
  getScriptFileNames: () => [file], getScriptVersion: () => "1",
  getScriptSnapshot: f => fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined,
  getCurrentDirectory: () => path.dirname(file),
  getCompilationSettings: () => ({ allowJs: true, jsx: ts.JsxEmit.Preserve, target: ts.ScriptTarget.ESNext }),
  getDefaultLibFileName: o => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory,
};
const service = ts.createLanguageService(host);
const source = service.getProgram().getSourceFile(file);
const at = ts.getPositionOfLineAndCharacter(source, +line, +col);
const found = service.findRenameLocations(file, at, false, false, { providePrefixAndSuffixTextForRename: true }) || [];
let out = text;
for (const l of found.filter(l => l.fileName === file).sort((a, b) => b.textSpan.start - a.textSpan.start)) {
  out = out.slice(0, l.textSpan.start) + (l.prefixText || "") + name + (l.suffixText || "") + out.slice(l.textSpan.start + l.textSpan.length);
}
process.stdout.write(out);
