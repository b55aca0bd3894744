package compiler

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
)

func TestZZDebug(t *testing.T) {
	id := os.Getenv("DBG_TASK")
	if id == "" {
		t.Skip()
	}
	m := shippedModule(t)
	tk, ds := CompileIncident(m, m.Incident(id), Options{KeepUncertified: true})
	if tk == nil {
		t.Fatal(ds)
	}
	want := strings.Split(os.Getenv("DBG_SLOTS"), ",")
	for k := 0; k < tk.SiteCount(); k++ {
		site := tk.Site(uint64(k))
		ep := engine.NewEpisode(tk)
		ep.Reset(uint64(k))
		fmt.Println("variant", k, site.Expert)
		show := func(label string) {
			row := ep.Row()
			var out []string
			for id, sl := range site.Slots {
				for _, w := range want {
					if w == tk.Services[sl.Service].Name+"."+sl.Name {
						out = append(out, fmt.Sprintf("%s=%s", w, site.ValueOf(sl.Kind, row[id])))
					}
				}
			}
			for _, b := range ep.AppendAnomalies(nil) {
				out = append(out, "ANOM:"+tk.Services[site.Slots[b].Service].Name+"."+site.Slots[b].Name+"="+fmt.Sprint(site.ValueOf(site.Slots[b].Kind, row[b])))
			}
			fmt.Println(" ", label, strings.Join(out, " "))
		}
		{
			e2 := engine.NewEpisode(tk)
			e2.Reset(uint64(k))
			for _, text := range site.Expert {
				a := action.Bind(site, text)
				e2.Step(&a)
			}
			fmt.Printf("  record: %+v\n", e2.Record())
		}
		show("start")
		for _, text := range site.Expert {
			a := action.Bind(site, text)
			if strings.HasPrefix(text, "resolve") {
				for i := 0; i < 4; i++ {
					ep.Advance()
					show("idle")
				}
				break
			}
			ep.Step(&a)
			show(text)
		}
	}
}
