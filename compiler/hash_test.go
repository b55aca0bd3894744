package compiler_test

import (
	"reflect"
	"testing"

	"github.com/srezc/srezc/runtime"
)

// TestHashCoversEveryField changes, one at a time, every leaf field
// reachable in a compiled task (through the first element of each slice)
// and requires the semantic hash to move: a field the hash skipped would let
// two different tasks share a cache entry and a record's task hash.
func TestHashCoversEveryField(t *testing.T) {
	var tk *runtime.Task
	for _, x := range suiteTasks(t) {
		if len(x.Noise) > 0 && len(x.Distractors) > 0 && len(x.Tags) > 0 && len(x.Uncertified) == 0 {
			tk = x
			break
		}
	}
	if tk == nil {
		t.Fatal("no shipped task has noise, distractors and tags")
	}
	c := *tk
	c.Uncertified = []string{"reason"} // so that the field has an element to change
	base := runtime.ComputeHash(&c)
	leaves := 0
	var visit func(path string, v reflect.Value)
	visit = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				f := v.Type().Field(i)
				if f.IsExported() && !(v.Type() == reflect.TypeFor[runtime.Task]() && f.Name == "Hash") {
					visit(path+"."+f.Name, v.Field(i))
				}
			}
			return
		case reflect.Slice:
			if v.Len() == 0 {
				t.Errorf("%s: empty in the chosen task, so its elements go unchecked", path)
				return
			}
			// The length alone must count.
			saved := v.Slice(0, v.Len())
			v.Set(v.Slice(0, v.Len()-1))
			check(t, &c, base, path+" (length)")
			v.Set(saved)
			visit(path+"[0]", v.Index(0))
			return
		}
		leaves++
		saved := reflect.New(v.Type()).Elem()
		saved.Set(v)
		switch v.Kind() {
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			v.SetUint(v.Uint() + 1)
		case reflect.Float32, reflect.Float64:
			v.SetFloat(v.Float() + 0.5)
		case reflect.String:
			v.SetString(v.String() + "x")
		default:
			t.Errorf("%s: unexpected kind %s", path, v.Kind())
			return
		}
		check(t, &c, base, path)
		v.Set(saved)
	}
	// Slices share backing arrays with the shipped task: work on copies.
	c = deepCopyTask(t, &c)
	visit("Task", reflect.ValueOf(&c).Elem())
	if leaves < 40 {
		t.Errorf("only %d leaf fields visited", leaves)
	}
	if runtime.ComputeHash(&c) != base {
		t.Error("restoring every field did not restore the hash")
	}
}

func check(t *testing.T, c *runtime.Task, base, path string) {
	t.Helper()
	if runtime.ComputeHash(c) == base {
		t.Errorf("changing %s does not change the hash", path)
	}
}

func deepCopyTask(t *testing.T, tk *runtime.Task) runtime.Task {
	data, err := runtime.EncodeTask(tk)
	if err != nil {
		t.Fatal(err)
	}
	back, err := runtime.DecodeTask(data)
	if err != nil {
		t.Fatal(err)
	}
	back.Hash = ""
	return *back
}
