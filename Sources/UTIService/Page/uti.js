// The page at `/`: identifies files through PUT /identify and browses the type database through GET /types,
// /types/{identifier}; nothing else is fetched. Text from the server is set as text, never as markup.
"use strict";

const typeCache = new Map();

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: { Accept: "application/json", ...(options.headers || {}) } });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body && (body.detail || body.title) || `${response.status} ${response.statusText}`);
  return body;
}

async function typeInfo(identifier) {
  if (!typeCache.has(identifier)) typeCache.set(identifier, api(`/types/${encodeURIComponent(identifier)}`));
  return typeCache.get(identifier);
}

function typeLink(identifier) {
  const link = el("a", { class: "type", href: `#type=${encodeURIComponent(identifier)}`, text: identifier });
  link.dataset.type = identifier;
  return link;
}

// The path from a type up through its declared parents to public.item (first parents first), or to the
// top of its hierarchy when it does not reach public.item.
async function conformanceChain(identifier) {
  const seen = new Set();
  async function walk(current) {
    if (seen.has(current) || seen.size > 64) return null;
    seen.add(current);
    if (current === "public.item") return [current];
    let info;
    try { info = await typeInfo(current); } catch { return [current]; }
    const parents = info.conformsTo || [];
    let fallback = null;
    for (const parent of parents) {
      const rest = await walk(parent);
      if (rest && rest[rest.length - 1] === "public.item") return [current, ...rest];
      if (rest && !fallback) fallback = [current, ...rest];
    }
    return fallback || [current];
  }
  return walk(identifier);
}

// ---- Identification -------------------------------------------------------------------------------------

function describeName(name) {
  if (!name) return "no name";
  const candidates = (name.candidates || []).join(", ");
  const how = name.match === "extension" ? `extension .${name.tag}` : `${name.match} ${name.tag || ""}`.trim();
  return candidates ? `${how} → ${candidates}` : `${how} (no type declares it)`;
}

function describeContent(content) {
  if (!content) return "not read";
  const parts = [content.identifier || content.mimeType];
  if (content.detail) parts.push(`“${content.detail}”`);
  parts.push(`by ${content.source}${content.conclusive ? ", conclusive" : ""}`);
  return parts.join(" · ");
}

async function renderResult(item, file, report) {
  item.replaceChildren();
  const lies = report.mismatch === true;
  item.className = "result" + (lies ? " lies" : "");
  item.dataset.identifier = report.identifier;
  item.dataset.mismatch = String(lies);
  const heading = el("h2", {}, el("span", { class: "name", text: file.name }));
  // "Agree" only where a name proposed a type the content bears out; a nameless file, or a name that proposes
  // nothing (no extension the database knows), is identified by its content alone, and says so.
  const named = (report.evidence || {}).name;
  const proposes = file.name && named && (named.candidates || []).length > 0;
  const badge = lies ? el("span", { class: "badge lie", text: "⚠ the name lies" })
    : proposes ? el("span", { class: "badge ok", text: "name and content agree" })
    : el("span", { class: "badge quiet", text: file.name ? "the name says nothing of its type: by content" : "no name: by content" });
  heading.append(badge);
  if (report.confidence) heading.append(el("span", { class: "badge confidence", text: `${report.confidence} confidence` }));
  item.append(heading);

  const evidence = report.evidence || {};
  item.dataset.verdict = lies ? "lies" : proposes ? "agree" : "content-only";
  if (lies) {
    const named = evidence.name && evidence.name.candidates && evidence.name.candidates.length ? evidence.name.candidates.join(", ") : "another type";
    item.append(el("p", { class: "why", text: `Its name says ${named}; its content is ${report.description} (${report.identifier}).` }));
  }
  const facts = el("dl", { class: "facts" });
  const add = (term, ...value) => facts.append(el("dt", { text: term }), el("dd", {}, ...value));
  add("Type", typeLink(report.identifier));
  add("Description", report.description || "");
  add("MIME type", el("code", { text: report.mimeType }));
  const chain = el("span", { class: "chain" });
  add("Conforms to", chain);
  add("Decided by", el("code", { text: evidence.rule || "" }));
  add("Name", describeName(evidence.name));
  add("Content", describeContent(evidence.content));
  if (evidence.nameOverruled) add("Overruled", String(evidence.nameOverruled));
  if ((evidence.otherReadings || []).length) add("Other readings", evidence.otherReadings.map(describeContent).join("; "));
  const pronom = report.pronom;
  if (pronom && (pronom.matches || []).length) {
    // Each PRONOM format with a link to its record at The National Archives.
    const formats = el("span", { class: "pronom" });
    pronom.matches.forEach((match, index) => {
      if (index > 0) formats.append(el("span", { class: "quiet", text: "; " }));
      formats.append(el("a", { href: `https://www.nationalarchives.gov.uk/PRONOM/${match.puid}`, rel: "noopener noreferrer", target: "_blank", text: match.puid, "data-puid": match.puid }),
        el("span", { text: ` ${match.name}${match.version ? " " + match.version : ""} (${match.method})` }));
    });
    add("PRONOM", formats);
    if (pronom.warning) add("PRONOM says", pronom.warning);
  }
  if (report.language) add("Language", report.language);
  if (report.encoding) add("Encoding", report.encoding);
  item.append(facts);

  const path = await conformanceChain(report.identifier);
  path.forEach((identifier, index) => {
    if (index > 0) chain.append(el("span", { class: "arrow", text: "→" }));
    chain.append(typeLink(identifier));
  });
  const others = (report.conformsTo || []).filter((identifier) => !path.includes(identifier));
  if (others.length) {
    chain.append(el("span", { class: "quiet", text: " also " }));
    others.forEach((identifier) => chain.append(typeLink(identifier)));
  }
  item.dataset.chain = path.join(" ");
}

async function identifyFiles(files) {
  const list = document.getElementById("results");
  const status = document.getElementById("identify-status");
  status.textContent = `Identifying ${files.length} file${files.length === 1 ? "" : "s"}…`;
  let done = 0;
  // A new batch goes above the earlier ones, its files in the order they were chosen.
  const above = list.firstChild;
  await Promise.all(Array.from(files).map(async (file) => {
    const item = el("li", { class: "result pending" }, el("h2", {}, el("span", { class: "name", text: file.name })), el("p", { class: "quiet", text: "identifying…" }));
    list.insertBefore(item, above);
    try {
      const report = await api(`/identify?pronom=true&name=${encodeURIComponent(file.name)}`, { method: "PUT", body: file, headers: { "Content-Type": "application/octet-stream" } });
      await renderResult(item, file, report);
    } catch (error) {
      item.className = "result failed";
      item.replaceChildren(el("h2", {}, el("span", { class: "name", text: file.name })), el("p", { class: "why", text: error.message }));
    }
    done += 1;
  }));
  status.textContent = `${done} file${done === 1 ? "" : "s"} identified.`;
  document.body.dataset.identified = String(list.children.length);
}

function setUpDropZone() {
  const drop = document.getElementById("drop");
  const input = document.getElementById("files");
  input.addEventListener("change", () => { if (input.files.length) identifyFiles(input.files); input.value = ""; });
  drop.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); input.click(); } });
  for (const name of ["dragenter", "dragover"]) drop.addEventListener(name, (event) => { event.preventDefault(); drop.classList.add("over"); });
  for (const name of ["dragleave", "drop"]) drop.addEventListener(name, () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    if (event.dataTransfer && event.dataTransfer.files.length) identifyFiles(event.dataTransfer.files);
  });
}

// ---- Type browser ----------------------------------------------------------------------------------------

const shownTypes = 300;
const shownSubtypes = 60;

// Subtypes in a useful order: the types Apple and the public domain declare, then the others, then those named
// after MIME types; shorter descriptions before longer. (A search's results keep the service's order.)
function orderSubtypes(types) {
  const score = (type) => {
    const identifier = type.identifier.toLowerCase();
    if (identifier.startsWith("uti.mime.") || identifier.startsWith("dyn.")) return 5;
    if (identifier.startsWith("public.")) return 2;
    if (identifier.startsWith("com.apple.")) return 3;
    return 4;
  };
  return types.map((type, index) => ({ type, index, score: score(type) }))
    .sort((a, b) => a.score - b.score || (a.type.description || "").length - (b.type.description || "").length || a.index - b.index)
    .map((entry) => entry.type);
}

async function searchTypes(query, extension, mime) {
  const parameters = new URLSearchParams();
  if (query) parameters.set("q", query);
  if (extension) parameters.set("extension", extension.replace(/^\./, ""));
  if (mime) parameters.set("mime", mime);
  const list = document.getElementById("type-list");
  list.replaceChildren(el("li", {}, el("span", { class: "quiet", text: "searching…" })));
  try {
    // The service's order is the ranking (a tag first, then a part of the identifier, a word of the description).
    const types = await api(`/types?${parameters}`);
    list.replaceChildren();
    for (const type of types.slice(0, shownTypes)) {
      const link = el("a", { href: `#type=${encodeURIComponent(type.identifier)}` },
        el("span", { class: "id", text: type.identifier }), el("span", { class: "desc", text: type.description || "" }));
      link.dataset.type = type.identifier;
      list.append(el("li", {}, link));
    }
    if (types.length === 0) {
      list.append(el("li", {}, el("span", { class: "quiet", text: "no type matches" })));
      // Nothing found: the detail of an earlier search's type goes too, so that it is not taken for an answer.
      const detail = document.getElementById("type-detail");
      detail.replaceChildren();
      delete detail.dataset.type;
    }
    if (types.length > shownTypes) list.append(el("li", {}, el("span", { class: "quiet", text: `${types.length - shownTypes} more: narrow the search` })));
    document.body.dataset.typeResults = String(types.length);
  } catch (error) {
    list.replaceChildren(el("li", {}, el("span", { class: "why", text: error.message })));
  }
}

async function openType(identifier) {
  const detail = document.getElementById("type-detail");
  detail.replaceChildren(el("p", { class: "quiet", text: `opening ${identifier}…` }));
  for (const link of document.querySelectorAll("#type-list a")) link.classList.toggle("selected", link.dataset.type === identifier);
  try {
    const [type, conforming] = await Promise.all([typeInfo(identifier), api(`/types?conformingTo=${encodeURIComponent(identifier)}`)]);
    const descendants = conforming.filter((candidate) => candidate.identifier !== type.identifier);
    const subtypes = descendants.filter((candidate) => (candidate.conformsTo || []).includes(type.identifier));
    detail.replaceChildren(
      el("h2", { text: type.description || type.identifier }),
      el("p", {}, el("code", { text: type.identifier }), el("span", { class: "quiet", text: ` · ${type.status || ""}${type.declaredIn ? " in " + type.declaredIn : ""}` })));
    detail.dataset.type = type.identifier;

    detail.append(el("h3", { text: "Tags" }));
    const tags = el("table", { class: "tags" });
    for (const [tagClass, values] of Object.entries(type.tags || {})) {
      tags.append(el("tr", {}, el("th", { text: tagClass }), el("td", {}, el("code", { text: values.join("  ") }))));
    }
    if (!tags.children.length) tags.append(el("tr", {}, el("td", { class: "quiet", text: "none" })));
    detail.append(tags);

    const section = (title, identifiers, empty) => {
      detail.append(el("h3", { text: title }));
      const links = el("div", { class: "typelinks" });
      identifiers.slice(0, shownSubtypes).forEach((one) => links.append(typeLink(one)));
      if (identifiers.length > shownSubtypes) {
        const more = el("button", { type: "button", class: "more", text: `show ${identifiers.length - shownSubtypes} more` });
        more.addEventListener("click", () => { more.remove(); identifiers.slice(shownSubtypes).forEach((one) => links.append(typeLink(one))); });
        links.append(more);
      }
      if (!identifiers.length) links.append(el("span", { class: "quiet", text: empty }));
      detail.append(links);
      return links;
    };
    section("Conforms to (its parents)", type.conformsTo || [], "nothing: a root of the hierarchy").id = "type-parents";
    section("All supertypes", type.supertypes || [], "none");
    section(`Subtypes (${subtypes.length} direct, ${descendants.length} in all)`, orderSubtypes(subtypes).map((one) => one.identifier), "none").id = "type-subtypes";
  } catch (error) {
    detail.replaceChildren(el("p", { class: "why", text: error.message }));
  }
}

function setUpTypeBrowser() {
  const form = document.getElementById("type-search");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    searchTypes(document.getElementById("type-query").value.trim(), document.getElementById("type-extension").value.trim(),
                document.getElementById("type-mime").value.trim());
  });
}

// ---- Views -----------------------------------------------------------------------------------------------

function show(view) {
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== view;
  document.getElementById("tab-identify").classList.toggle("active", view === "identify");
  document.getElementById("tab-types").classList.toggle("active", view === "types");
}

function route() {
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash.startsWith("type=")) {
    show("types");
    openType(hash.slice(5));
  } else {
    show(hash === "types" ? "types" : "identify");
  }
}

document.addEventListener("DOMContentLoaded", async () => {
  setUpDropZone();
  setUpTypeBrowser();
  window.addEventListener("hashchange", route);
  route();
  try {
    const response = await fetch("/version");
    document.getElementById("version").textContent = (await response.text()).trim();
  } catch { /* the footer stays empty */ }
});
