package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const refTasksDir = "../../shared/reference/sre-zero-tasks"

// importReference imports the reference's task files and split manifest,
// as srezc import sre-zero does, and analyses the result with the stdlib.
func importReference(t *testing.T) (*Module, map[string][]byte, SreZeroSplits) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(refTasksDir, "task_splits.json"))
	if err != nil {
		t.Skipf("the reference tasks are not here: %v", err)
	}
	splits, err := ParseSreZeroSplits("task_splits.json", data)
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(refTasksDir, "*.json"))
	sort.Strings(paths)
	originals := map[string][]byte{}
	var files []*File
	for _, p := range paths {
		if filepath.Base(p) == "task_splits.json" {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		id := strings.TrimSuffix(filepath.Base(p), ".json")
		gotID, out, err := ImportSreZeroTask(p, src, splits.Split(id), contains(splits["unseen_incident"], id))
		if err != nil {
			t.Fatal(err)
		}
		originals[gotID] = src
		files = append(files, &File{Name: gotID + Ext, Src: out})
	}
	suite, err := splits.SuiteSource("sre_zero")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, &File{Name: "suite" + Ext, Src: suite})
	m, diags := Analyze(files)
	if diags.HasErrors() {
		var b strings.Builder
		WriteText(&b, m.Files, diags)
		t.Fatalf("the imported tasks do not analyse:\n%s", b.String())
	}
	if len(originals) != 40 {
		t.Fatalf("%d reference tasks, want 40", len(originals))
	}
	return m, originals, splits
}

// TestSreZeroRoundTrip: import then export gives every reference task file
// back, equal in every field the reference environment reads, and the
// split manifest back list for list.
func TestSreZeroRoundTrip(t *testing.T) {
	m, originals, splits := importReference(t)
	var ids []string
	for _, in := range m.Incidents {
		ids = append(ids, in.Name)
		out, err := ExportSreZeroTask(m, in)
		if err != nil {
			t.Fatal(err)
		}
		want, err := parseJSON(originals[in.Name])
		if err != nil {
			t.Fatal(err)
		}
		got, err := parseJSON(out)
		if err != nil {
			t.Fatalf("%s: the export is not JSON: %v\n%s", in.Name, err, out)
		}
		a, b := readsOf(want), readsOf(got)
		if a != b {
			t.Errorf("%s: the export differs from the reference file\nwant %s\ngot  %s", in.Name, a, b)
		}
	}
	got, err := ParseSreZeroSplits("exported", ExportSreZeroSplits(m, ids))
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range SuiteLists {
		if strings.Join(got[list], ",") != strings.Join(splits[list], ",") {
			t.Errorf("split %s: got %v, want %v", list, got[list], splits[list])
		}
	}
}

// readsOf renders what the reference environment reads of a task file,
// with its schema's defaults filled in (spec §2): pydantic fills absent
// optional fields, reads min_numeric_value as a float, and looks up the
// descriptions of relevant evidence keys only.
func readsOf(n *jnode) string {
	defaults := map[string]string{"expected_action_pattern": "[]", "distractors": "[]", "distractor_services": "[]", "max_steps": "8", "terminal_on_wrong_resolution": "true", "metadata": "{}"}
	var b strings.Builder
	b.WriteString("{")
	for _, k := range refTaskFields {
		v := n.get(k)
		b.WriteString(k + ":")
		switch {
		case v == nil:
			b.WriteString(defaults[k])
		case k == "evidence_descriptions":
			b.WriteString("{")
			for _, key := range n.get("relevant_evidence").vals {
				if d := v.get(key.str); d != nil {
					b.WriteString(strconv.Quote(key.str) + ":" + render(d) + ",")
				}
			}
			b.WriteString("}")
		case k == "service_patches":
			// Each field of a patch applies on its own, so their order
			// within a patch is not read.
			b.WriteString("{")
			for i, svc := range v.keys {
				b.WriteString(strconv.Quote(svc) + ":{")
				for _, f := range refPatchFields {
					if fv := v.vals[i].get(f); fv != nil {
						b.WriteString(f + ":" + render(fv) + ",")
					}
				}
				b.WriteString("},")
			}
			b.WriteString("}")
		case k == "correct_fix":
			b.WriteString("{")
			for _, fk := range refFixFields {
				fv := v.get(fk)
				b.WriteString(fk + ":")
				switch {
				case fv == nil || fv.kind == 'z':
					if fk == "fix_keywords" {
						b.WriteString("[]")
					} else {
						b.WriteString("null")
					}
				case fk == "min_numeric_value":
					f, _ := strconv.ParseFloat(fv.num, 64)
					b.WriteString(fmt.Sprint(f))
				default:
					b.WriteString(render(fv))
				}
				b.WriteString(",")
			}
			b.WriteString("}")
		default:
			b.WriteString(render(v))
		}
		b.WriteString(",")
	}
	return b.String() + "}"
}

// render writes a node with its keys in order and each number's kind.
func render(n *jnode) string {
	switch n.kind {
	case 'o':
		var parts []string
		for i, k := range n.keys {
			parts = append(parts, strconv.Quote(k)+":"+render(n.vals[i]))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case 'a':
		var parts []string
		for _, v := range n.vals {
			parts = append(parts, render(v))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case 's':
		return strconv.Quote(n.str)
	case 'n':
		f, _ := strconv.ParseFloat(n.num, 64)
		if strings.ContainsAny(n.num, ".eE") {
			return "float:" + strconv.FormatFloat(f, 'g', -1, 64)
		}
		return "int:" + n.num
	case 'b':
		return strconv.FormatBool(n.b)
	}
	return "null"
}
