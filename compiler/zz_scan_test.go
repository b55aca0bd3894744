package compiler_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/runtime"
)

// ZZ_TASK, ZZ_SVC, ZZ_KEY, ZZ_VALS="a,b,c", ZZ_PRE="act;;act"
func TestZZScan(t *testing.T) {
	id := os.Getenv("ZZ_TASK")
	m, _ := lang.Analyze(lang.ScenarioFiles())
	tasks, _ := compiler.CompileWith(m, compiler.Options{KeepUncertified: true, SkipCertify: os.Getenv("ZZ_SKIP") != ""})
	for _, tk := range tasks {
		if tk.ID != id {
			continue
		}
		for _, v := range strings.Split(os.Getenv("ZZ_VALS"), ",") {
			open := *tk
			open.Budget = 100
			ep := runtime.NewEpisode(&open)
			ep.Reset(1)
			pre := os.Getenv("ZZ_PRE")
			if pre != "" {
				for _, s := range strings.Split(pre, ";;") {
					a := compiler.BindText(&open, s)
					ep.Step(&a)
				}
			}
			a := compiler.BindText(&open, "update_config("+os.Getenv("ZZ_SVC")+", "+os.Getenv("ZZ_KEY")+", "+v+")")
			ep.Step(&a)
			for k := 0; k < tk.Budget; k++ {
				ep.Advance()
			}
			var bad []string
			for _, s := range ep.AppendAnomalies(nil) {
				bad = append(bad, tk.Services[tk.Slots[s].Service].Name+"."+tk.Slots[s].Name+"="+tk.ValueOf(tk.Slots[s].Kind, ep.Row()[s]).String())
			}
			fixed := []string{}
			for i := range tk.Faults {
				fixed = append(fixed, strconv.FormatBool(ep.FaultFixed(i)))
			}
			fmt.Println(v, "mitigated", ep.Mitigated(), "fixed", fixed, bad)
		}
	}
}
