// kitgen step-through viewer: draws one frame at a time from the JSON data block above.
// Every text goes through textContent: nothing in the data is parsed as HTML.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var frames = data.frames;
  var index = 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function $(id) { return document.getElementById(id); }
  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }
  function face(symbol) { return data.faces[symbol] || { text: symbol, name: symbol, src: "" }; }
  function counts(map) {
    return Object.keys(map).sort().map(function (k) { return map[k] + " " + face(k).text; }).join(", ");
  }
  // A spec's own words set P_1, x_{i} as P with a subscript 1, x with a subscript i (as the
  // booklet prints them): text nodes and <sub> elements, never HTML.
  var SUBSCRIPT = /_(\{[^}]*\}|\([^)]*\)|\[[^\]]*\]|[A-Za-z0-9]+)/g;
  function rich(node, text) {
    clear(node);
    text = String(text === undefined || text === null ? "" : text);
    var last = 0, m;
    SUBSCRIPT.lastIndex = 0;
    while ((m = SUBSCRIPT.exec(text)) !== null) {
      if (m.index > last) { node.appendChild(document.createTextNode(text.slice(last, m.index))); }
      node.appendChild(el("sub", "", m[1].replace(/^\{|\}$/g, "")));
      last = m.index + m[0].length;
    }
    if (last < text.length) { node.appendChild(document.createTextNode(text.slice(last))); }
    return node;
  }
  function richEl(tag, cls, text) { return rich(el(tag, cls), text); }
  function picture(src, alt) {
    var img = document.createElement("img");
    img.src = src;
    img.alt = alt;
    return img;
  }

  function drawRegion(region) {
    var box = el("div", "region");
    box.setAttribute("data-region", region.name);
    var hidden = region.cols - region.shown.filter(function (c) { return c !== null; }).length;
    var title = richEl("div", "region-title", region.title);
    title.appendChild(document.createTextNode(" (" + region.rows + " \u00d7 " + region.cols + ")"));
    box.appendChild(title);
    var inPile = {};
    region.piles.forEach(function (pile) {
      pile.forEach(function (rc) { inPile[rc[0] + "," + rc[1]] = true; });
    });
    // A wide row scrolls sideways at a readable size instead of shrinking its cards.
    var scroller = el("div", "scroller");
    scroller.tabIndex = 0;
    scroller.setAttribute("role", "group");
    scroller.setAttribute("aria-label", region.title + "{{: the cards on the table}}");
    var grid = el("div", "grid");
    var columns = region.shown.map(function (c) { return c === null ? "var(--gap-w)" : "var(--card-w)"; }).join(" ");
    grid.style.gridTemplateColumns = columns;
    region.cells.forEach(function (row, r) {
      row.forEach(function (cell, i) {
        var col = region.shown[i];
        var slot;
        if (col === null) {
          slot = el("div", "gap", "\u2026 " + hidden + "{{ more}}");
        } else if (cell === null || cell.symbol === null) {
          slot = el("div", "slot empty");
          slot.title = "{{an empty place}}";
        } else {
          var f = face(cell.symbol);
          slot = el("div", "slot card " + (cell.up ? "up" : "down"));
          if (cell.up) {
            slot.appendChild(picture(f.src, f.name));
            slot.title = "{{face up: }}" + f.name;
          } else {
            slot.appendChild(picture(data.card_back, "{{a face-down card}}"));
            slot.appendChild(el("span", "hidden-face", f.text));
            slot.title = "{{face down}}";
          }
        }
        if (col !== null && cell !== null && cell.changed) { slot.classList.add("changed"); }
        if (col !== null && inPile[(r + 1) + "," + col]) { slot.classList.add("in-pile"); }
        grid.appendChild(slot);
      });
    });
    scroller.appendChild(grid);
    if (region.labels.length) {
      var labels = el("div", "labels");
      labels.style.gridTemplateColumns = columns;
      region.labels.forEach(function (lab) {
        var a = region.shown.indexOf(lab.first), b = region.shown.indexOf(lab.last);
        if (a < 0 || b < 0) { return; }
        var s = richEl("span", "", lab.text);
        s.style.gridColumn = (a + 1) + " / " + (b + 2);
        labels.appendChild(s);
      });
      scroller.appendChild(labels);
    }
    box.appendChild(scroller);
    if (region.arrows.length) {
      box.appendChild(el("p", "moves", "{{Moves (places counted from the left): }}" + region.arrows.map(function (m) {
        return m[0] + " \u2192 " + m[1];
      }).join(", ")));
    }
    return box;
  }

  function drawCardLegend() {
    var list = $("card-legend");
    clear(list);
    Object.keys(data.faces).sort(function (a, b) {
      return data.faces[a].name.localeCompare(data.faces[b].name);
    }).forEach(function (k) {
      var f = data.faces[k];
      var li = el("li");
      li.appendChild(picture(f.src, ""));
      var words = el("span");
      words.appendChild(el("code", "", f.text));
      words.appendChild(document.createTextNode(": " + f.name));
      li.appendChild(words);
      list.appendChild(li);
    });
  }

  function drawEnd() {
    var outcomes = $("outcomes");
    clear(outcomes);
    data.sections.forEach(function (sec) {
      if (!sec.outcome.length) { return; }
      outcomes.appendChild(el("h3", "", sec.title));
      var ul = el("ul");
      sec.outcome.forEach(function (o) { ul.appendChild(richEl("li", "", o)); });
      outcomes.appendChild(ul);
    });
    var verdicts = $("verdicts");
    clear(verdicts);
    if (!data.verdicts.length) { verdicts.appendChild(el("p", "", "{{No verification report.}}")); }
    data.verdicts.forEach(function (v) {
      var box = el("div", "verdict " + (v.verified ? "ok" : "failed"));
      box.appendChild(el("h3", "", v.title + ": " + (v.verified ? "{{verified}}" : "{{NOT VERIFIED}}") +
        " (" + v.method + (v.scenario ? ", " + v.scenario + "{{ deck}}" : "") + ")"));
      var ul = el("ul");
      v.checks.forEach(function (c) {
        ul.appendChild(el("li", c.ok ? "" : "bad", (c.ok ? "\u2713 " : "\u2717 ") + c.name + ": " + c.figure));
      });
      box.appendChild(ul);
      verdicts.appendChild(box);
    });
  }

  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    var f = frames[index];
    var end = f.section === null;
    $("position").textContent = (index + 1) + " / " + frames.length;
    $("first").disabled = $("prev").disabled = index === 0;
    $("next").disabled = $("last").disabled = index === frames.length - 1;
    $("end").hidden = !end;
    var table = $("table");
    clear(table);
    clear($("notes"));
    $("checks").hidden = true;
    $("spares").textContent = "";
    $("caption").textContent = "";
    if (end) {
      $("protocol").textContent = data.title;
      $("step-number").textContent = "";
      $("step-say").textContent = "";
      $("example").textContent = "";
      drawEnd();
      drawLegend(null);
    } else {
      var sec = data.sections[f.section];
      drawLegend(sec);
      $("protocol").textContent = sec.title;
      $("step-number").textContent = "{{Step }}" + f.step + (f.pictures > 1 ? " (" + f.picture + "/" + f.pictures + ")" : "");
      rich($("step-say"), f.say);
      rich($("example"), sec.example);
      var d = f.diagram;
      if (d) {
        $("caption").textContent = d.caption;
        d.regions.forEach(function (r) { table.appendChild(drawRegion(r)); });
        var spares = [];
        if (Object.keys(d.taken).length) { spares.push("{{Taken from the spare cards: }}" + counts(d.taken) + "{{.}}"); }
        if (Object.keys(d.returned).length) { spares.push("{{Back to the spare cards: }}" + counts(d.returned) + "{{.}}"); }
        $("spares").textContent = spares.join(" ");
      } else if (!f.ran) {
        table.appendChild(el("p", "caption", "{{This run did not need this step.}}"));
      }
      f.notes.forEach(function (n) { $("notes").appendChild(richEl("li", "", n)); });
      if (f.checks.length) {
        var list = $("check-list");
        clear(list);
        f.checks.forEach(function (c) { list.appendChild(richEl("li", "", c)); });
        rich($("if-wrong"), f.if_wrong ? "{{If it shows anything else: }}" + f.if_wrong : "");
        $("checks").hidden = false;
      }
    }
    document.body.setAttribute("data-frame", String(index));
    if (history.replaceState) { history.replaceState(null, "", "#" + (index + 1)); }
  }

  function toggleHidden(on) {
    document.body.classList.toggle("show-hidden", on);
    $("hidden-toggle").checked = on;
  }

  $("title").textContent = data.title;
  rich($("subtitle"), data.subtitle);
  $("back-swatch").style.backgroundImage = "url(" + data.card_back + ")";
  drawCardLegend();
  if (data.back) { $("back").hidden = false; $("back-link").setAttribute("href", data.back); }
  function drawLegend(sec) {
    var legend = $("legend");
    clear(legend);
    var seen = {};
    (sec ? sec.legend : []).forEach(function (line) {
      if (seen[line]) { return; }
      seen[line] = true;
      legend.appendChild(richEl("p", "", line));
    });
    if (legend.firstChild) { legend.insertBefore(el("h2", "", "{{How values are written}}"), legend.firstChild); }
  }
  $("first").addEventListener("click", function () { show(0); });
  $("prev").addEventListener("click", function () { show(index - 1); });
  $("next").addEventListener("click", function () { show(index + 1); });
  $("last").addEventListener("click", function () { show(frames.length - 1); });
  $("hidden-toggle").addEventListener("change", function (e) { toggleHidden(e.target.checked); });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT" && e.key === " ") { return; }
    if (e.key === "ArrowRight" || e.key === " " || e.key === "PageDown") { show(index + 1); }
    else if (e.key === "ArrowLeft" || e.key === "PageUp") { show(index - 1); }
    else if (e.key === "Home") { show(0); }
    else if (e.key === "End") { show(frames.length - 1); }
    else if (e.key === "h" || e.key === "H") { toggleHidden(!document.body.classList.contains("show-hidden")); }
    else { return; }
    e.preventDefault();
  });
  var start = parseInt((location.hash || "#1").slice(1), 10);
  show(isNaN(start) ? 0 : start - 1);
}());
