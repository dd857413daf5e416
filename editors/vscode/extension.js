// The tricklang extension: starts the language server (`tricklang lsp`, over stdio) for
// .trick files. The command is the setting `tricklang.server.command`.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("tricklang").get("server.command", ["tricklang", "lsp"]);
  client = new LanguageClient(
    "tricklang",
    "tricklang",
    { command, args },
    { documentSelector: [{ language: "tricklang" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
