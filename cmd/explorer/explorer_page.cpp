// explorerPage: the JSON data, then the template with styles, script and
// data put in place of its markers.
#include "cmd/explorer/explorer_page.h"

#include <initializer_list>
#include <string_view>

#include "cmd/explorer/explorer_assets.h"  // generated: kPageHtml, kExplorerCss, kGraphLayoutJs, kExplorerJs
#include "cmd/explorer/json_writer.h"

namespace simplec {

namespace {

void writeNode(JsonWriter& w, const SnapshotNode& n) {
  w.beginObject();
  w.key("id").value(int64_t(n.serial));
  w.key("op").value(n.op);
  w.key("label").value(n.label);
  w.key("type").value(n.type);
  w.key("line").value(int64_t(n.line));
  w.key("col").value(int64_t(n.col));
  w.key("cfg").value(n.control);
  w.key("names").beginArray();
  for (const std::string& s : n.names) w.value(s);
  w.endArray();
  w.key("in").beginArray();
  for (int64_t s : n.inputs) w.value(s);
  w.endArray();
  w.key("edges").value(n.edgeKinds);
  w.endObject();
}

void writeInts(JsonWriter& w, const std::vector<int>& v) {
  w.beginArray();
  for (int x : v) w.value(int64_t(x));
  w.endArray();
}

std::string htmlEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

struct Fill {
  std::string_view marker;
  std::string_view text;
};

// The template with each marker replaced, in one scan of the template only:
// what is put in (a file name, the data) is never searched for markers.
std::string expand(std::string_view tmpl, std::initializer_list<Fill> fills) {
  std::string out;
  size_t i = 0;
  while (i < tmpl.size()) {
    const Fill* hit = nullptr;
    for (const Fill& f : fills)
      if (tmpl.substr(i, f.marker.size()) == f.marker) hit = &f;
    if (hit) {
      out += hit->text;
      i += hit->marker.size();
    } else {
      out += tmpl[i++];
    }
  }
  return out;
}

}  // namespace

std::string explorerJson(const ExplorerInput& in) {
  JsonWriter w;
  w.beginObject();
  w.key("file").value(in.fileName);
  w.key("opt").value(int64_t(in.optLevel));
  w.key("source").value(in.source);
  w.key("passes").beginArray();
  if (in.history)
    for (const std::string& p : in.history->passes()) w.value(p);
  w.endArray();
  // Functions that had a body at some point, numbered in that order.
  std::vector<int> shownIndex;
  w.key("functions").beginArray();
  if (in.history) {
    const auto& funs = in.history->functions();
    shownIndex.assign(funs.size(), -1);
    int next = 0;
    for (size_t f = 0; f < funs.size(); f++) {
      if (funs[f].versions.empty()) continue;
      shownIndex[f] = next++;
      w.beginObject();
      w.key("name").value(funs[f].name);
      w.key("versions").beginArray();
      for (const FunctionVersion& v : funs[f].versions) {
        w.beginObject();
        w.key("pass").value(int64_t(v.pass));
        w.key("removed").value(v.removed);
        w.key("nodes").beginArray();
        for (const SnapshotNode& n : v.graph.nodes) writeNode(w, n);
        w.endArray();
        w.endObject();
      }
      w.endArray();
      w.endObject();
    }
  }
  w.endArray();
  w.key("schedules").beginArray();
  for (const FunctionSchedule& fs : in.schedules) {
    w.beginObject();
    int shown = fs.funIndex >= 0 && size_t(fs.funIndex) < shownIndex.size() ? shownIndex[size_t(fs.funIndex)] : -1;
    w.key("function").value(int64_t(shown));
    w.key("name").value(fs.name);
    w.key("blocks").beginArray();
    for (const ScheduledBlock& b : fs.blocks) {
      w.beginObject();
      w.key("head").value(b.head);
      w.key("depth").value(int64_t(b.loopDepth));
      w.key("preds");
      writeInts(w, b.preds);
      w.key("succs");
      writeInts(w, b.succs);
      w.key("nodes").beginArray();
      for (const ScheduledNode& n : b.nodes) {
        w.beginArray().value(int64_t(n.serial)).value(n.text).endArray();
      }
      w.endArray();
      w.endObject();
    }
    w.endArray();
    w.endObject();
  }
  w.endArray();
  w.key("asm").beginArray();
  for (const AsmLine& a : in.assembly) w.beginArray().value(a.text).value(int64_t(a.line)).endArray();
  w.endArray();
  w.endObject();
  return w.text();
}

std::string explorerPage(const ExplorerInput& in) {
  std::string title = htmlEscape(in.fileName) + " - simplec explorer";
  std::string data = explorerJson(in);
  return expand(kPageHtml, {{"{{TITLE}}", title},
                            {"/*{{CSS}}*/", kExplorerCss},
                            {"/*{{LAYOUT_JS}}*/", kGraphLayoutJs},
                            {"/*{{JS}}*/", kExplorerJs},
                            {"{{DATA}}", data}});
}

}  // namespace simplec
