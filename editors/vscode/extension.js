// Starts `heraldc lsp` (the setting herald.serverPath, `heraldc` by
// default) for the workspace's Herald files and stops it with the editor.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

async function activate(context) {
  const command =
    vscode.workspace.getConfiguration('herald').get('serverPath') || 'heraldc';
  client = new LanguageClient(
    'herald',
    'Herald (heraldc lsp)',
    { command, args: ['lsp'] },
    { documentSelector: [{ scheme: 'file', language: 'herald' }] },
  );
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('herald.serverPath')) {
        vscode.window.showInformationMessage(
          'Herald: reload the window to start the language server from the new herald.serverPath.',
        );
      }
    }),
  );
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
