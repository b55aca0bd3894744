package lang

// IncidentSources names, file by file, the sources an incident's analysis
// and compilation read, so that a result computed from them can be reused
// while those bytes are unchanged (srezc validate's shipped results,
// compiler.CheckWith). An incident in Own is the only declaration of its
// file; it reads that file and the Shared files, which are every file
// holding no incident (the standard library among them), and nothing of
// the other incidents' files: incidents refer to kinds, systems, tools and
// rubrics, never to each other (a name declared twice is the checker's
// error, reported by Analyze and marking the incident Broken). An
// incident that shares its file with another declaration is not in Own.
type IncidentSources struct {
	Shared []*File
	Own    map[*Incident]*File
}

// IncidentSources sorts m's files as the type says.
func (m *Module) IncidentSources() IncidentSources {
	byName := map[string]*File{}
	named := map[string]int{}
	for _, f := range m.Files {
		byName[f.Name] = f
		named[f.Name]++
	}
	decls := map[string]int{}
	for _, d := range m.decls() {
		if byName[d.DefRange.Filename] == nil {
			// A declaration placed in no known file could be anywhere.
			return IncidentSources{Own: map[*Incident]*File{}}
		}
		decls[d.DefRange.Filename]++
	}
	incidents := map[string]int{}
	for _, in := range m.Incidents {
		incidents[in.DefRange.Filename]++
	}
	out := IncidentSources{Own: map[*Incident]*File{}}
	for _, f := range m.Files {
		if incidents[f.Name] == 0 {
			out.Shared = append(out.Shared, f)
		}
	}
	for _, in := range m.Incidents {
		name := in.DefRange.Filename
		if f := byName[name]; f != nil && named[name] == 1 && incidents[name] == 1 && decls[name] == 1 {
			out.Own[in] = f
		}
	}
	return out
}
