// Package lang is srezc's front end and the only package that imports HCL:
// it parses *.srez.hcl files, decodes them into a Module, resolves every
// reference, type-checks every runtime expression with expr-lang, and
// formats source with hclwrite. Text actions are the action package's;
// lang uses its grammars to check expert plans. For editors it owns the
// schema table (schema.go: every block, attribute and nesting context the
// decoder accepts, with documentation; the decoder reads its schemas from
// it) and the index of definitions and uses by kind (index.go), which the
// language server only forwards.
//
// Errors poison only the declaration they are in (its Broken flag); later
// checks skip what depends on a broken declaration and check everything
// else, so one run reports every independent error, sorted.
//
// lang imports value, stdlib, scenarios and action only; the compiler
// lowers what lang checks.
package lang
