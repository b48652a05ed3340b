// Command gen writes gql/gqltype/descriptions_gen.go from the doc comments
// of package config, so that every GraphQL type and field built from a
// config type is described as its Go declaration is:
//
//	go generate ./gql/gqltype    # or: go run ./gql/gqltype/gen
//
// It runs from anywhere in the module (it finds the module's root by its
// go.mod). A type's description is the first paragraph of its comment, as
// one line; when that paragraph ends with a colon (it introduces a list),
// the sentences before the one that does. A field's is its whole comment
// (the one above it, else its trailing line comment) as one line. A field
// with no comment of its own, on the line after a field of its run, shares
// the comment of the run's first field when that comment names it ("Style
// and JavaScript go around ..."). The values of a string type are its
// constants, each with its comment.
//
// It prints the exported fields and types that have no comment, to be
// written: the registry then falls back to a description made from the
// name, and gqltype's tests fail.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/doc"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// configImport is the import path of the package described.
const configImport = "github.com/aisle-search/aisle/config"

// out is the generated file, relative to the module's root.
const out = "gql/gqltype/descriptions_gen.go"

func main() {
	root, err := moduleRoot()
	if err == nil {
		err = run(root)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	src, missing, err := generate(filepath.Join(root, "config"), "config")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, out), src, 0o644); err != nil {
		return err
	}
	for _, m := range missing {
		fmt.Fprintf(os.Stderr, "gen: %s has no comment\n", m)
	}
	return nil
}

// moduleRoot is the nearest directory at or above the working directory
// that holds a go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the working directory")
		}
		dir = parent
	}
}

// generate parses the package in dir (its non-test .go files) and returns
// the Go source of descriptions_gen.go, its keys prefixed by pkg ("config"),
// and the keys of the exported types and fields that lack a comment.
func generate(dir, pkg string) (src []byte, missing []string, err error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("no Go files in %s", dir)
	}
	p, err := doc.NewFromFiles(fset, files, configImport)
	if err != nil {
		return nil, nil, err
	}
	descs := map[string]string{}
	enums := map[string]map[string]string{}
	for _, t := range p.Types {
		key := pkg + "." + t.Name
		if d := typeDoc(t.Doc); d != "" {
			descs[key] = d
		} else {
			missing = append(missing, key)
		}
		spec := typeSpec(t)
		if spec == nil {
			continue
		}
		switch u := spec.Type.(type) {
		case *ast.StructType:
			missing = append(missing, fieldDocs(fset, key, u, descs)...)
		case *ast.Ident:
			if u.Name == "string" {
				vals, undocumented := constValues(t)
				if len(vals) > 0 {
					enums[key] = vals
				}
				for _, c := range undocumented {
					missing = append(missing, pkg+"."+c)
				}
			}
		}
	}
	src, err = render(descs, enums)
	return src, missing, err
}

// typeSpec is the declaration of t.
func typeSpec(t *doc.Type) *ast.TypeSpec {
	for _, s := range t.Decl.Specs {
		if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == t.Name {
			return ts
		}
	}
	return nil
}

// fieldDocs adds the descriptions of st's exported fields to descs, keyed
// key.Field, and returns the keys of those with none.
func fieldDocs(fset *token.FileSet, key string, st *ast.StructType, descs map[string]string) (missing []string) {
	var run string // the comment of the run of fields the next may join
	prevLine := -1 // the line the previous field ends on
	for _, f := range st.Fields.List {
		line := fset.Position(f.Pos()).Line
		own := ""
		switch {
		case f.Doc != nil:
			own = oneLine(f.Doc.Text())
			run = own
		case f.Comment != nil:
			own = oneLine(f.Comment.Text())
			run = ""
		case line != prevLine+1:
			run = ""
		}
		prevLine = fset.Position(f.End()).Line
		if jsonName(f) == "-" {
			continue
		}
		for _, n := range f.Names {
			if !n.IsExported() {
				continue
			}
			d := own
			if d == "" && run != "" && names(run, n.Name) {
				d = run
			}
			if d == "" {
				missing = append(missing, key+"."+n.Name)
				continue
			}
			descs[key+"."+n.Name] = d
		}
	}
	return missing
}

// jsonName is the name in f's json tag.
func jsonName(f *ast.Field) string {
	if f.Tag == nil {
		return ""
	}
	tag, err := strconv.Unquote(f.Tag.Value)
	if err != nil {
		return ""
	}
	name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
	return name
}

// names reports that comment names the identifier id as a word.
func names(comment, id string) bool {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(id) + `\b`).MatchString(comment)
}

// constValues are the string values of t's constants, each with its
// comment (trailing, else above it), and the names of those with none.
func constValues(t *doc.Type) (vals map[string]string, undocumented []string) {
	vals = map[string]string{}
	for _, v := range t.Consts {
		for _, s := range v.Decl.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok || len(vs.Names) != len(vs.Values) {
				continue
			}
			comment := ""
			if vs.Comment != nil {
				comment = oneLine(vs.Comment.Text())
			} else if vs.Doc != nil {
				comment = oneLine(vs.Doc.Text())
			}
			for i, e := range vs.Values {
				lit, ok := e.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				if val, err := strconv.Unquote(lit.Value); err == nil {
					vals[val] = comment
					if comment == "" {
						undocumented = append(undocumented, vs.Names[i].Name)
					}
				}
			}
		}
	}
	return vals, undocumented
}

// typeDoc is the first paragraph of text as one line, or, when it ends
// with a colon, its sentences before the last.
func typeDoc(text string) string {
	para, _, _ := strings.Cut(strings.TrimSpace(text), "\n\n")
	d := oneLine(para)
	if strings.HasSuffix(d, ":") {
		if i := strings.LastIndex(d, ". "); i >= 0 {
			d = d[:i+1]
		}
	}
	return d
}

// oneLine is text with its runs of white space made single spaces.
func oneLine(text string) string { return strings.Join(strings.Fields(text), " ") }

// render is the source of descriptions_gen.go.
func render(descs map[string]string, enums map[string]map[string]string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`// Code generated by "go run ./gql/gqltype/gen" from config/*.go; DO NOT EDIT.

package gqltype

// descriptions are package config's doc comments, each as one line:
// "config.T" is type T's, "config.T.F" its field F's.
var descriptions = map[string]string{
`)
	for _, k := range slices.Sorted(maps.Keys(descs)) {
		fmt.Fprintf(&b, "\t%s: %s,\n", strconv.Quote(k), strconv.Quote(descs[k]))
	}
	b.WriteString(`}

// enumValues are the values of package config's string types that
// constants declare, each with its constant's comment: "config.T" is
// type T's.
var enumValues = map[string]map[string]string{
`)
	for _, k := range slices.Sorted(maps.Keys(enums)) {
		fmt.Fprintf(&b, "\t%s: {\n", strconv.Quote(k))
		for _, v := range slices.Sorted(maps.Keys(enums[k])) {
			fmt.Fprintf(&b, "\t\t%s: %s,\n", strconv.Quote(v), strconv.Quote(enums[k][v]))
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
