package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// The SRE-Zero reference's task format: import converts its task files into
// incidents under the sre_zero profile; export writes incidents back.

const formatSreZero = "sre-zero"

func checkFormat(format string) error {
	if format != formatSreZero {
		return usageError{fmt.Errorf("unknown format %q: export writes %s or trajectories", format, formatSreZero)}
	}
	return nil
}

func (e *env) importCmd() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "import sre-zero DIR -o OUTDIR",
		Short: "Convert SRE-Zero reference task files into incidents under the sre_zero profile",
		Long: `Convert the SRE-Zero reference's task files (DIR/*.json) and split manifest
(DIR/task_splits.json) into formatted incident files, one per task, and a
suite file holding the splits, in OUTDIR. The result is validated: the
incidents compile, and what certification finds (for example the
restart-everything exploit on the crash tasks) is recorded on each task as
a warning and shown by srezc list. Nothing is written unless every file
converts.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(args[0]); err != nil {
				return err
			}
			if out == "" {
				return usageError{fmt.Errorf("import needs -o OUTDIR")}
			}
			return e.importSreZero(args[1], out)
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "", "directory to write the incident files to")
	return c
}

func (e *env) importSreZero(dir, out string) error {
	splitsPath := filepath.Join(dir, "task_splits.json")
	data, err := os.ReadFile(splitsPath)
	if err != nil {
		return fmt.Errorf("cannot read the split manifest: %w", err)
	}
	splits, err := lang.ParseSreZeroSplits(splitsPath, data)
	if err != nil {
		return err
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	sort.Strings(paths)
	files := map[string][]byte{}
	var order []string
	for _, p := range paths {
		if filepath.Base(p) == "task_splits.json" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		id := strings.TrimSuffix(filepath.Base(p), ".json")
		split := splits.Split(id)
		if split == "" {
			return fmt.Errorf("%s: no benchmark split (train, dev or test) in %s lists %q", p, splitsPath, id)
		}
		id, src, err := lang.ImportSreZeroTask(p, data, split, slices.Contains(splits["unseen_incident"], id))
		if err != nil {
			return err
		}
		name := id + lang.Ext
		if _, dup := files[name]; dup {
			return fmt.Errorf("%s: a second task with id %q", p, id)
		}
		files[name] = src
		order = append(order, name)
	}
	if len(order) == 0 {
		return fmt.Errorf("%s holds no task files", dir)
	}
	suite, err := splits.SuiteSource("sre_zero")
	if err != nil {
		return err
	}
	files["suite"+lang.Ext] = suite
	order = append(order, "suite"+lang.Ext)

	// The result must validate before anything is written.
	var lf []*lang.File
	for _, name := range order {
		lf = append(lf, &lang.File{Name: filepath.Join(out, name), Src: files[name]})
	}
	m, diags := lang.Analyze(lf)
	tasks, cd := compiler.CompileWith(m, compiler.Options{Cache: e.certified})
	diags = append(diags, cd...).Sort()
	if diags.HasErrors() {
		lang.WriteText(e.stderr, m.Files, diags)
		return errPrinted
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, name := range order {
		if err := writeAtomic(filepath.Join(out, name), files[name]); err != nil {
			return err
		}
	}
	certified := 0
	for _, t := range tasks {
		if t.Certified {
			certified++
		}
	}
	fmt.Fprintf(e.stdout, "imported %d tasks into %s: %d certified, %d with findings (srezc list %s)\n", len(tasks), out, certified, len(tasks)-certified, out)
	return nil
}

func (e *env) exportCmd() *cobra.Command {
	var (
		out, format, only, style string
		replies                  bool
	)
	c := &cobra.Command{
		Use:   "export scenarios DIR | export sre-zero PATH... -o DIR | export trajectories RECORDS --format chat-jsonl -o FILE",
		Short: "Write the embedded sources, incidents as SRE-Zero task files, or recorded episodes as chat training data",
		Long: `export scenarios DIR writes the embedded default's sources to read and fork:
DIR/scenarios (the default suite's incidents) and DIR/mutations (the
mutations and suite specs over them), which srezc validate DIR reads as the
default suite, and the stdlib under DIR/_stdlib, for reading only (the
loader skips folders whose names start with _ or ., and every module has
the embedded stdlib). Refuses, writing nothing, when any file exists.

export sre-zero PATH... -o DIR writes incidents as SRE-Zero reference task
files and a split manifest.

export trajectories RECORDS --format chat-jsonl -o FILE writes the episodes
of a records.jsonl as chat-format training data (for supervised
fine-tuning baselines), one conversation per line: the system prompt of an
LLM agent style (--style), the intro, then each action as the assistant's
turn and each observation as the user's. --only keeps successes (the
default), failures or all; --replies uses an LLM's whole answer (a ReAct
Thought included) where the record has it. Infrastructure errors and
episodes with no trajectory are skipped.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == "scenarios" {
				switch {
				case len(args) == 2 && out == "":
					out = args[1]
				case len(args) != 1 || out == "":
					return usageError{fmt.Errorf("export scenarios takes one DIR (or -o DIR)")}
				}
				return e.exportScenarios(out)
			}
			if out == "" {
				return usageError{fmt.Errorf("export needs -o")}
			}
			if args[0] == "trajectories" {
				if len(args) != 2 {
					return usageError{fmt.Errorf("export trajectories takes one records.jsonl")}
				}
				return e.exportTrajectories(args[1], out, format, only, style, replies)
			}
			if err := checkFormat(args[0]); err != nil {
				return err
			}
			return e.exportSreZero(args[1:], out)
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "", "directory (sre-zero) or file (trajectories) to write")
	c.Flags().StringVar(&format, "format", "chat-jsonl", "trajectories: the output format (chat-jsonl)")
	c.Flags().StringVar(&only, "only", "success", "trajectories: success, failure or all")
	c.Flags().StringVar(&style, "style", "prompting", "trajectories: the system prompt of this LLM agent style")
	c.Flags().BoolVar(&replies, "replies", false, "trajectories: the model's whole answers where recorded, not only its actions")
	return c
}

func (e *env) exportSreZero(paths []string, out string) error {
	// Native incidents export their certified evidence set, so the
	// module is compiled with certification.
	m, tasks, err := e.loadModule(paths, compiler.Options{})
	if err != nil {
		return err
	}
	byID := map[string]*engine.Task{}
	for _, t := range tasks {
		byID[t.ID] = t
	}
	files := map[string][]byte{}
	var ids []string
	var diags lang.Diagnostics
	for _, in := range m.Incidents {
		var data []byte
		if m.Profile(in) == lang.ProfileSreZero {
			if data, err = lang.ExportSreZeroTask(m, in); err != nil {
				return err
			}
		} else {
			var d *lang.Diagnostic
			if data, d = compiler.ExportNativeSreZero(m, in, byID[in.Name]); d != nil {
				diags = append(diags, d)
				continue
			}
		}
		files[in.Name+".json"] = data
		ids = append(ids, in.Name)
	}
	if len(diags) > 0 {
		lang.WriteText(e.stderr, m.Files, diags.Sort())
		return errPrinted
	}
	files["task_splits.json"] = lang.ExportSreZeroSplits(m, ids)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := writeAtomic(filepath.Join(out, n), files[n]); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stdout, "exported %d tasks and task_splits.json into %s\n", len(ids), out)
	return nil
}
