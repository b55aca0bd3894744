package cli

import (
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/llm"
)

// Shell completion (cobra's `srezc completion bash|zsh|fish|powershell`)
// completes more than subcommand names: task ids, agent names and the
// values of enumerated flags. Task ids come from the PATH arguments
// already typed, or from the embedded suite; analysing them takes a
// fraction of a second and compiles nothing.

// flagValues are the fixed values of flags, by command and flag name; a
// command "" applies to every command with that flag.
var flagValues = map[[2]string][]string{
	{"validate", "format"}: {"text", "json"},
	{"tools", "format"}:    {"text", "openai", "json"},
	{"export", "format"}:   {"chat-jsonl"},
	{"export", "style"}:    llm.Styles,
	{"regrade", "style"}:   llm.Styles,
	{"run", "agent"}:       runAgentNames,
	{"eval", "noise"}:      {"authored", "both"},
	{"", "split"}:          {"train", "dev", "test"},
}

// runAgentNames are srezc run's agents.
var runAgentNames = append([]string{"scripted", "random", "replay", "greedy"}, agents.BlindAgentNames()...)

// taskArgCommands take a task id as their first argument.
var taskArgCommands = map[string]bool{"certify": true, "show": true, "play": true}

// registerCompletions walks the command tree and registers a completion
// for each flag and argument it knows.
func registerCompletions(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		name := c.Name()
		c.Flags().VisitAll(func(f *pflag.Flag) {
			var fn cobra.CompletionFunc
			switch {
			case f.Name == "task":
				fn = completeTasks
			case f.Name == "agents":
				fn = completeList(evalAgentNames)
			case f.Name == "dump-after":
				fn = prefixed(compiler.StageNames())
			default:
				vals, ok := flagValues[[2]string{name, f.Name}]
				if !ok {
					vals, ok = flagValues[[2]string{"", f.Name}]
				}
				if ok {
					fn = prefixed(vals)
				}
			}
			if fn != nil {
				_ = c.RegisterFlagCompletionFunc(f.Name, fn)
			}
		})
		if taskArgCommands[name] {
			c.ValidArgsFunction = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				if len(args) == 0 {
					return completeTasks(c, nil, toComplete)
				}
				return nil, cobra.ShellCompDirectiveDefault // a PATH
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completeTasks lists the incident ids of the PATH arguments typed so far
// (files and folders that exist), or of the embedded suite.
func completeTasks(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	var paths []string
	for _, a := range args {
		if _, err := os.Stat(a); err == nil {
			paths = append(paths, a)
		}
	}
	files, _ := readInputs(paths)
	m, _ := lang.Analyze(files)
	var ids []string
	for _, in := range m.Incidents {
		if strings.HasPrefix(in.Name, toComplete) {
			ids = append(ids, in.Name)
		}
	}
	sort.Strings(ids)
	return ids, cobra.ShellCompDirectiveNoFileComp
}

// completeList completes the last item of a comma-separated list.
func completeList(values []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		done, last := "", toComplete
		if i := strings.LastIndex(toComplete, ","); i >= 0 {
			done, last = toComplete[:i+1], toComplete[i+1:]
		}
		var out []string
		for _, v := range values {
			if strings.HasPrefix(v, last) && !strings.Contains(","+done, ","+v+",") {
				out = append(out, done+v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// prefixed completes the values that start with what is typed.
func prefixed(values []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, v := range values {
			if strings.HasPrefix(v, toComplete) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
