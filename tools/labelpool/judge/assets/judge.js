// labelpool judge: the page. Plain script, no library, nothing from the network.
// Every text from a file arrives sanitised by the server and is set with textContent only.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const token = document.querySelector('meta[name="labelpool-token"]').content;
  let S = null; // the state the server sent (the label files, read again)
  let qi = 0; // current question
  let di = 0; // current document of it
  const undoStack = [];
  let busy = false;

  async function api(method, path, body) {
    const init = { method, headers: { "X-Labelpool-Token": token }, cache: "no-store" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    let data = null;
    try { data = await res.json(); } catch (e) { data = { error: "unreadable answer" }; }
    return { status: res.status, data };
  }

  function say(text) { $("message").textContent = text || ""; }
  const q = () => (S && S.questions[qi]) || null;
  const cur = () => { const x = q(); return x ? x.docs[di] || null : null; };

  function counts() {
    let done = 0, total = 0, qdone = 0;
    for (const x of S.questions) {
      let all = true;
      for (const d of x.docs) {
        total += 1;
        if (d.status === "judged") done += 1; else all = false;
      }
      if (all && x.docs.length) qdone += 1;
    }
    return { done, total, qdone };
  }

  function renderProgress() {
    const c = counts();
    let line = `${c.done} / ${c.total} judged; ${c.qdone} question${c.qdone === 1 ? "" : "s"} done · ${S.batch_shown}`;
    if (S.uncommitted) line += ` · ${S.uncommitted} change${S.uncommitted === 1 ? "" : "s"} not committed`;
    if (S.waiting_shown) line += ` · ${S.waiting_shown}`;
    $("progress").textContent = line;
    $("commit-button").textContent = S.uncommitted ? `Commit (${S.uncommitted})` : "Commit";
  }

  function verdictText(v) {
    if (v === null || v === undefined) return "";
    if (typeof v === "object") return `duplicate of ${v["duplicate-of"]}`;
    return String(v);
  }

  function render() {
    renderProgress();
    const x = q(), d = cur();
    if (!x || !d) {
      $("question").textContent = "Nothing to judge in this batch." + (S.waiting_shown ? ` ${S.waiting_shown}.` : "");
      return;
    }
    $("question").textContent = x.question;
    $("doc-id").textContent = `${d.shown}  (${di + 1} of ${x.docs.length} for ${x.shown})`;
    const st = $("doc-status");
    st.className = d.status;
    if (d.status === "judged") st.textContent = d.verdict !== null ? `your verdict: ${verdictText(d.verdict)}` : "has a verdict";
    else if (d.status === "cant") st.textContent = `can't judge: ${d.reason}`;
    else st.textContent = "pending";
    const facts = [];
    if (d.supersedes.length) facts.push(`supersedes ${d.supersedes.join(", ")}`);
    if (d.superseded_by.length) facts.push(`superseded by ${d.superseded_by.join(", ")}`);
    $("versions").textContent = facts.length ? facts.join(" · ") : "no other version known";
    // an adjudication is not blind: every judge's verdict (never sent for any other batch)
    const others = d.verdicts || [];
    $("others").textContent = others.length ? "verdicts: " + others.map((v) => `${v.judge}${v.kind === "machine" ? " (machine)" : ""}: ${verdictText(v.verdict)}`).join(" · ") : "";
    $("others").hidden = !others.length;
    $("doc-title").textContent = d.title;
    $("text-note").textContent = d.note ? `(${d.note})` : "";
    $("text-note").hidden = !d.note;
    const t = $("text");
    t.textContent = d.text;
    t.className = d.source === "none" ? "none" : "";
    $("text-box").scrollTop = 0;
    renderRelevant(x);
  }

  function renderRelevant(x) {
    const list = $("relevant");
    list.replaceChildren();
    $("relevant-summary").textContent = `Already judged relevant (${x.relevant.length})`;
    for (const r of x.relevant) {
      const li = document.createElement("li");
      const cls = r.class.length > 1 ? ` (class: ${r.class.join(", ")})` : "";
      li.append(document.createTextNode(`${r.shown}, grade ${r.grade}${cls} `));
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = "text";
      b.addEventListener("click", async () => {
        if (li.querySelector("pre")) { li.querySelector("pre").remove(); return; }
        const res = await api("GET", `/api/text?q=${encodeURIComponent(x.qid)}&doc=${encodeURIComponent(r.doc)}`);
        const pre = document.createElement("pre");
        const note = res.data.note ? `(${res.data.note})\n` : "";
        pre.textContent = res.status === 200 ? note + (res.data.title ? res.data.title + "\n" : "") + res.data.text : res.data.error;
        li.append(pre);
      });
      li.append(b);
      list.append(li);
    }
  }

  function renderGrades() {
    const box = $("grade-buttons");
    box.replaceChildren();
    for (let g = 2; g <= S.max_grade; g++) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.key = String(g);
      b.append(document.createTextNode(`Grade ${g} `));
      const k = document.createElement("kbd");
      k.textContent = String(g);
      b.append(k);
      box.append(b);
    }
    $("help-max-grade").textContent = String(S.max_grade);
  }

  function positions() {
    const out = [];
    S.questions.forEach((x, a) => x.docs.forEach((_, b) => out.push([a, b])));
    return out;
  }

  function goNextPending(includeCurrent) {
    const all = positions();
    const here = all.findIndex(([a, b]) => a === qi && b === di);
    for (let step = includeCurrent ? 0 : 1; step <= all.length; step++) {
      const [a, b] = all[(here + step + all.length) % all.length];
      if (S.questions[a].docs[b].status === "pending") { qi = a; di = b; render(); return true; }
    }
    render();
    say("Every document of this batch has a verdict or a can't-judge note. Commit when ready.");
    return false;
  }

  function move(delta) {
    const all = positions();
    const here = all.findIndex(([a, b]) => a === qi && b === di);
    const next = here + delta;
    if (next < 0 || next >= all.length) { say(delta > 0 ? "last document" : "first document"); return; }
    [qi, di] = all[next];
    say("");
    render();
  }

  function nextQuestion() {
    if (S.questions.length < 2) { say("this is the only question"); return; }
    qi = (qi + 1) % S.questions.length;
    const p = S.questions[qi].docs.findIndex((d) => d.status === "pending");
    di = p < 0 ? 0 : p;
    say("");
    render();
  }

  function replaceQuestion(fresh) {
    if (!fresh) return;
    const at = S.questions.findIndex((x) => x.qid === fresh.qid);
    if (at < 0) return;
    const keep = S.questions[at].docs[di] ? S.questions[at].docs[di].doc : null;
    S.questions[at] = fresh;
    if (at === qi) {
      const p = fresh.docs.findIndex((d) => d.doc === keep);
      di = p < 0 ? 0 : p;
    }
  }

  // undoRef: the server's reference to what a write replaced (the page never holds it:
  // it may be another judge's verdict)
  async function write(x, d, verdict, reason, undoRef) {
    if (busy) return false;
    busy = true;
    document.body.dataset.busy = "1";
    try {
      const body = { q: x.qid, batch: S.batch, doc: d.doc, expect: d.block };
      if (undoRef) body.undo = undoRef;
      else Object.assign(body, { verdict, reason: reason === undefined ? null : reason });
      const res = await api("POST", "/api/verdict", body);
      if (res.status === 200) {
        const i = x.docs.findIndex((e) => e.doc === d.doc);
        x.docs[i] = res.data.doc;
        S.uncommitted = res.data.uncommitted;
        if (!undoRef) undoStack.push({ qid: x.qid, doc: d.doc, before: res.data.before });
        if (undoRef) verdict = res.data.doc.verdict; // what the page may show of it
        if (verdict !== null && typeof verdict !== "object" && verdict !== "irrelevant" && verdict !== 0) {
          if (!x.relevant.some((r) => r.doc === d.doc)) {
            x.relevant.push({ doc: d.doc, shown: d.shown, grade: verdict === "relevant" ? 1 : verdict, class: [d.shown] });
          }
        } else {
          x.relevant = x.relevant.filter((r) => r.doc !== d.doc || r.class.length > 1);
        }
        const c = res.data.committed;
        say(c ? (c.commit ? `committed ${c.commit.slice(0, 12)}: ${c.verdicts} verdicts` : "") : "");
        return true;
      }
      if (res.status === 409) {
        replaceQuestion(res.data.question);
        render();
        say(`${res.data.error}: look again before you judge it.`);
        return false;
      }
      say(res.data.error || `error ${res.status}`);
      return false;
    } catch (e) {
      say(`the server does not answer (${e})`);
      return false;
    } finally {
      busy = false;
      document.body.dataset.busy = "0";
    }
  }

  async function judge(verdict, reason) {
    const x = q(), d = cur();
    if (!x || !d) return;
    if (await write(x, d, verdict, reason, null)) goNextPending(false);
  }

  async function undo() {
    const last = undoStack.pop();
    if (!last) { say("nothing to undo"); return; }
    const a = S.questions.findIndex((x) => x.qid === last.qid);
    if (a < 0) return;
    const b = S.questions[a].docs.findIndex((d) => d.doc === last.doc);
    if (b < 0) return;
    qi = a; di = b;
    if (await write(S.questions[a], S.questions[a].docs[b], null, null, last.before.undo)) {
      render();
      say(`undone: ${S.questions[a].docs[b].shown}`);
    } else {
      render();
    }
  }

  async function commit() {
    document.body.dataset.busy = "1";
    let res;
    try { res = await api("POST", "/api/commit", {}); } finally { document.body.dataset.busy = "0"; }
    if (res.status === 200) {
      S.uncommitted = 0;
      renderProgress();
      say(res.data.commit ? `committed ${res.data.commit.slice(0, 12)}: ${res.data.verdicts} verdicts in ${res.data.files} files` : "nothing to commit");
    } else {
      say(res.data.error || `error ${res.status}`);
    }
  }

  // --- dialogs -----------------------------------------------------------------------------
  let dialog = null;
  function open(id) {
    dialog = id;
    $("overlay").hidden = false;
    for (const d of ["help", "picker", "cant"]) $(d).hidden = d !== id;
  }
  function close() {
    dialog = null;
    $("overlay").hidden = true;
    for (const d of ["help", "picker", "cant"]) $(d).hidden = true;
  }

  function openPicker() {
    const x = q();
    if (!x || !cur()) return;
    const options = x.relevant.filter((r) => r.doc !== cur().doc);
    if (!options.length) { say("no document of this question is judged relevant yet"); return; }
    const list = $("picker-list");
    list.replaceChildren();
    options.forEach((r) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = r.class.length > 1 ? `${r.shown} (joins class: ${r.class.join(", ")})` : `${r.shown} (a new class with it)`;
      b.addEventListener("click", () => { close(); judge({ "duplicate-of": r.doc }); });
      li.append(b);
      list.append(li);
    });
    open("picker");
    list.querySelector("button").focus();
  }

  function openCant() {
    if (!cur()) return;
    $("cant-reason").value = "";
    open("cant");
    $("cant-reason").focus();
  }

  $("cant").addEventListener("submit", (e) => {
    e.preventDefault();
    const reason = $("cant-reason").value.trim() || "(no reason given)";
    close();
    judge(null, reason);
  });
  $("cant-cancel").addEventListener("click", close);

  // --- keys --------------------------------------------------------------------------------
  function act(key) {
    if (!S) return;
    if (key === "?") { dialog === "help" ? close() : open("help"); return; }
    if (key === "1" || key === "r") return judge("relevant");
    if (key === "0" || key === "i") return judge("irrelevant");
    if (/^[2-9]$/.test(key)) {
      const g = Number(key);
      if (g > S.max_grade) { say(`grade ${g} is above this repository's scale (0..${S.max_grade})`); return; }
      return judge(g);
    }
    if (key === "d") return openPicker();
    if (key === "c") return openCant();
    if (key === "s") { say(""); goNextPending(false); return; }
    if (key === "u") return undo();
    if (key === "j" || key === "ArrowDown" || key === "ArrowRight") return move(1);
    if (key === "k" || key === "ArrowUp" || key === "ArrowLeft") return move(-1);
    if (key === "n") return nextQuestion();
  }

  function typing(el) {
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
  }

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    if (e.key === "Escape" && dialog) { e.preventDefault(); close(); return; }
    if (typing(e.target)) return;
    if (dialog === "picker") {
      const n = Number(e.key);
      const buttons = $("picker-list").querySelectorAll("button");
      if (n >= 1 && n <= buttons.length) { e.preventDefault(); buttons[n - 1].click(); }
      return;
    }
    if (dialog === "help" && e.key !== "?") return;
    if (e.key === "Enter" || e.key === " " || e.key === "Tab") return; // the focused button
    const keys = "?10ri23456789dcsujknArrowDownArrowUpArrowLeftArrowRight";
    if (e.key.length === 1 ? keys.includes(e.key) : ["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight"].includes(e.key)) {
      e.preventDefault();
      act(e.key);
    }
  });

  document.addEventListener("click", (e) => {
    const b = e.target.closest("#actions button");
    if (b && b.dataset.key) act(b.dataset.key);
  });
  $("help-button").addEventListener("click", () => act("?"));
  $("commit-button").addEventListener("click", commit);
  $("guidelines-button").addEventListener("click", () => { $("guidelines-panel").hidden = !$("guidelines-panel").hidden; });
  $("guidelines-close").addEventListener("click", () => { $("guidelines-panel").hidden = true; });
  $("overlay").addEventListener("click", (e) => { if (e.target === $("overlay")) close(); });

  async function start() {
    const res = await api("GET", "/api/state");
    if (res.status !== 200) { $("progress").textContent = res.data.error || `error ${res.status}`; return; }
    S = res.data;
    renderGrades();
    if (S.guidelines) {
      $("guidelines").textContent = S.guidelines;
      $("guidelines-button").hidden = false;
    }
    $("commit-button").disabled = !S.can_commit;
    if (!S.can_commit) $("commit-button").title = "set git config user.name and user.email to commit";
    qi = 0; di = 0;
    if (!goNextPending(true)) render();
    document.body.dataset.ready = "1";
  }
  start();
})();
