// Runs the HTML sanitizer classic Notebook 6.4 ships (notebook/static/components/sanitizer, a
// bundle of JupyterLab's Sanitizer over sanitize-html) on views, under Node, with the options
// each front end gives it for an untrusted output:
//   classic  security.js's sanitize_html(html, false): allowedStyles {} (no style attribute)
//   lab      JupyterLab's defaults (style attributes with its allowed properties)
// stdin: {"bundle": path, "mode": "classic" | "lab", "html": [string, ...]}
// stdout: [sanitized string, ...]
'use strict';
const fs = require('fs');
const vm = require('vm');

const request = JSON.parse(fs.readFileSync(0, 'utf8'));
let sanitizer = null;
// The bundle is an AMD module: define(() => exports).
global.define = (factory) => { sanitizer = factory(); };
vm.runInThisContext(fs.readFileSync(request.bundle, 'utf8'), { filename: request.bundle });
const options = request.mode === 'classic' ? { allowedStyles: {} } : undefined;
const out = request.html.map((html) => sanitizer.defaultSanitizer.sanitize(html, options));
process.stdout.write(JSON.stringify(out));
