// The first paint of /docs/: the OpenAPI document's title, description and operations
// (method, path, summary, deprecation, "sandbox only"), written into the page at build
// time with Swagger UI's own classes, so it looks like Swagger UI's collapsed list.
// Swagger UI (1.7 MB of script, then resolving the OpenAPI 3.1 document) takes about a
// second of a cold page load to render; until it has, the page is readable, and it stays
// readable without JavaScript. docs-page.ts swaps this out for Swagger UI in one step.

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

const escapeHtml = (text) =>
  String(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')

/** The little Markdown the document's descriptions use: paragraphs and `code`. */
const markdown = (text) =>
  text
    .split(/\n{2,}/)
    .map(
      (paragraph) =>
        `<p>${escapeHtml(paragraph).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`,
    )
    .join('\n')

/** The operations of `openapi` by tag, in the document's tag order then path order. */
function operationsByTag(openapi) {
  const byTag = new Map((openapi.tags ?? []).map((tag) => [tag.name, []]))
  for (const [path, item] of Object.entries(openapi.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method]
      if (!operation) continue
      const tag = operation.tags?.[0] ?? 'default'
      if (!byTag.has(tag)) byTag.set(tag, [])
      byTag.get(tag).push({ method, path, ...operation })
    }
  }
  return byTag
}

/**
 * The preview's HTML for `openapi` (the document the server serves at /openapi.json),
 * followed by the operations of `control` (the control API's, /__sandbox/openapi.json)
 * when given: the page's picker shows one at a time once Swagger UI runs, and without it
 * the page still lists every operation of both.
 * @example
 * renderDocsPreview(readJson('dist/openapi.json'), readJson('dist/control-openapi.json'))
 */
export function renderDocsPreview(openapi, control) {
  const sections = tagSections(openapi)
  if (control) {
    sections.push(
      `<h2 class="docs-preview-document">${escapeHtml(control.info?.title ?? 'Control API')} <a href="/__sandbox/openapi.json">/__sandbox/openapi.json</a></h2>`,
      ...tagSections(control),
    )
  }
  return documentPreview(openapi, sections)
}

/** One section a tag, as Swagger UI's collapsed list. */
function tagSections(openapi) {
  const tags = new Map((openapi.tags ?? []).map((tag) => [tag.name, tag]))
  return [...operationsByTag(openapi)]
    .filter(([, operations]) => operations.length > 0)
    .map(([name, operations]) => {
      const items = operations.map((operation) => {
        const classes = [`opblock`, `opblock-${operation.method}`]
        if (operation.deprecated) classes.push('opblock-deprecated')
        // Element timing: when the first operation is painted is the bench's figure.
        const timing =
          operation.operationId === 'listPets' ? ' elementtiming="docs-listed"' : ''
        return `<li class="${classes.join(' ')}" data-operation="${escapeHtml(operation.operationId)}"${operation['x-sandbox'] ? ' data-sandbox' : ''}>
<div class="opblock-summary">
<span class="opblock-summary-method">${operation.method.toUpperCase()}</span>
<span class="opblock-summary-path"${timing}>${escapeHtml(operation.path)}</span>${operation.deprecated ? '\n<span class="docs-preview-deprecated">deprecated</span>' : ''}
<span class="opblock-summary-description">${escapeHtml(operation.summary ?? '')}</span>
</div>
</li>`
      })
      const description = tags.get(name)?.description
      return `<section class="opblock-tag-section is-open" data-tag="${escapeHtml(name)}"${tags.get(name)?.['x-sandbox'] ? ' data-sandbox' : ''}>
<h2 class="opblock-tag"><span>${escapeHtml(name)}</span>${description ? ` <small>${escapeHtml(description)}</small>` : ''}</h2>
<ul class="docs-preview-operations">
${items.join('\n')}
</ul>
</section>`
    })
}

function documentPreview(openapi, sections) {
  const info = openapi.info ?? {}
  return `<div id="docs-preview" class="swagger-ui docs-preview">
<p class="docs-preview-status" role="status">Loading <strong>Try it out</strong>: the list below is this server's OpenAPI document, and becomes interactive in a moment.</p>
<div class="information-container wrapper"><section class="block col-12"><div class="info">
<hgroup class="main"><h2 class="title">${escapeHtml(info.title ?? 'API')}<span><small><pre class="version"> ${escapeHtml(info.version ?? '')} </pre></small><small class="version-stamp"><pre class="version">OAS ${escapeHtml(
    String(openapi.openapi ?? '')
      .split('.')
      .slice(0, 2)
      .join('.'),
  )}</pre></small></span></h2>
<a href="/openapi.json" class="link"><span class="url"> /openapi.json</span></a></hgroup>
<div class="info__description description"><div class="renderedMarkdown">
${markdown(info.description ?? '')}
</div></div>
</div></section></div>
<div class="wrapper"><section class="block col-12">
${sections.join('\n')}
</section></div>
</div>`
}
