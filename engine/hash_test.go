package engine_test

import (
	"reflect"
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
)

// TestHashCoversEveryField changes, one at a time, every leaf field
// reachable in a compiled task (through the first element of each slice)
// and requires the semantic hash to move: a field the hash skipped would let
// two different tasks share a cache entry and a record's task hash.
func TestHashCoversEveryField(t *testing.T) {
	c := *suiteTasks(t)[0]
	// Slices share backing arrays with the shipped task: work on copies.
	c = deepCopyTask(t, &c)
	c.Profile = record.ProfileNative
	// Every empty slice gets an element and every nil pointer a value, so
	// that each field has something to change.
	fill(reflect.ValueOf(&c).Elem(), false)
	base := engine.ComputeHash(&c)
	leaves := 0
	var visit func(path string, v reflect.Value)
	visit = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				f := v.Type().Field(i)
				if f.IsExported() && !(v.Type() == reflect.TypeFor[engine.Task]() && (f.Name == "Hash" || f.Name == "Behaviour" || f.Name == "Sites" && path != "Task")) {
					visit(path+"."+f.Name, v.Field(i))
				}
			}
			return
		case reflect.Pointer:
			saved := v.Elem()
			v.Set(reflect.Zero(v.Type()))
			check(t, &c, base, path+" (nil)")
			v.Set(saved.Addr())
			visit(path, v.Elem())
			return
		case reflect.Slice:
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
	visit("Task", reflect.ValueOf(&c).Elem())
	if leaves < 40 {
		t.Errorf("only %d leaf fields visited", leaves)
	}
	if engine.ComputeHash(&c) != base {
		t.Error("restoring every field did not restore the hash")
	}
}

func check(t *testing.T, c *engine.Task, base, path string) {
	t.Helper()
	if engine.ComputeHash(c) == base {
		t.Errorf("changing %s does not change the hash", path)
	}
}

func deepCopyTask(t *testing.T, tk *engine.Task) engine.Task {
	data, err := engine.EncodeTask(tk)
	if err != nil {
		t.Fatal(err)
	}
	back, err := engine.DecodeTask(data)
	if err != nil {
		t.Fatal(err)
	}
	back.Hash = ""
	return *back
}

// fill gives every empty slice one zero element and every nil pointer a
// zero value, recursively; a site variant (Task.Sites) has no sites of
// its own.
func fill(v reflect.Value, inSite bool) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if v.Type() == reflect.TypeFor[engine.Task]() && f.Name == "Sites" {
				if !inSite {
					fill(v.Field(i), true)
				}
				continue
			}
			fill(v.Field(i), inSite)
		}
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fill(v.Elem(), inSite)
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
		}
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), inSite)
		}
	}
}

// TestCompiledHashIsComputed: every shipped task's recorded hash is its
// semantic hash (the compiler seals it in two levels; a stale level would
// make records disagree with the IR).
func TestCompiledHashIsComputed(t *testing.T) {
	for _, tk := range suiteTasks(t) {
		if tk.Hash != engine.ComputeHash(tk) {
			t.Errorf("%s: recorded hash is not the task's", tk.ID)
		}
	}
}
