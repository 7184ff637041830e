// node check_vsix.js VSIX NPM_DIR EDITORS_DIR: the packed extension holds
// the client, its dependencies, the language configuration and the grammar
// (byte for byte the repository's), and what its manifest names is there.
'use strict';
const fs = require('fs');
const path = require('path');
const [vsix, npmDir, editorsDir] = process.argv.slice(2);
const yauzl = require(path.join(npmDir, 'tools/node_modules/yauzl'));

function readEntries(file) {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map();
      zip.on('entry', (entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks = [];
          stream.on('data', (c) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

(async () => {
  const entries = await readEntries(vsix);
  const problems = [];
  const need = (name) => {
    if (!entries.has(name)) problems.push(`missing ${name}`);
    return entries.get(name);
  };
  const manifest = JSON.parse(need('extension/package.json') || '{}');
  need('extension/extension.js');
  need('extension/README.md');
  need('extension/node_modules/vscode-languageclient/package.json');
  for (const lang of manifest.contributes?.languages ?? []) {
    const config = need(path.posix.join('extension', lang.configuration));
    if (config) JSON.parse(config);
  }
  const grammars = manifest.contributes?.grammars ?? [];
  if (grammars.length !== 1 || grammars[0].scopeName !== 'source.herald') {
    problems.push('the manifest does not contribute the source.herald grammar');
  }
  for (const g of grammars) {
    const packed = need(path.posix.join('extension', g.path));
    const source = fs.readFileSync(path.join(editorsDir, 'textmate/herald.tmLanguage.json'));
    if (packed && !packed.equals(source)) {
      problems.push(`${g.path} differs from editors/textmate/herald.tmLanguage.json`);
    }
  }
  if (manifest.main !== './extension.js') problems.push(`main is ${manifest.main}`);
  for (const name of entries.keys()) {
    if (/(^|\/)(package-lock|installed-lock)\.json$/.test(name) && !name.includes('node_modules/')) {
      problems.push(`unexpected ${name}`);
    }
  }
  if (problems.length) {
    console.error(`${vsix}:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`${vsix}: ${entries.size} entries; client, language configuration and grammar present`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
