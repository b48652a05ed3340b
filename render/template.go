package render

import (
	"context"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template/parse"
)

// Template is a compiled configuration template, safe for concurrent
// renders, each bounded (limits.go). html/template cannot be interrupted
// but through its writer or its functions, so Compile makes every
// template it defines, and every range iteration, begin with a write of
// nothing (tick): a render that loops or calls templates without
// writing still checks its time and context. A template that calls itself, directly or
// through others, is refused, so calls nest no deeper than the
// templates defined.
type Template struct {
	name   string
	lim    limits
	master *template.Template // parsed and ticked, never executed: cloned
	// execs are clones of master with their functions bound to their
	// own run: a template's functions cannot see the render calling
	// them, so each concurrent render takes a clone of its own.
	execs sync.Pool
}

// exec is a clone of a Template's master, bound to its run.
type exec struct {
	t *template.Template
	r run
}

// Name is the template's name, as Compile was given it.
func (t *Template) Name() string { return t.name }

// Compile parses a configuration's search template, or DefaultSearch
// when src is empty, so errors surface when the configuration loads
// rather than on a shopper's request.
func Compile(name, src string) (*Template, error) {
	if src == "" {
		src = DefaultSearch
	}
	return compile(name, src)
}

// CompileRecoms is Compile for a recommendation box's template, whose
// default is DefaultRecoms.
func CompileRecoms(name, src string) (*Template, error) {
	if src == "" {
		src = DefaultRecoms
	}
	return compile(name, src)
}

// CompilePage is Compile for a page's template, whose default is
// DefaultPage.
func CompilePage(name, src string) (*Template, error) {
	if src == "" {
		src = DefaultPage
	}
	return compile(name, src)
}

// parseFuncs are the functions a template is parsed with: bound to a
// run no render uses, as only clones execute.
var parseFuncs = funcsFor(&run{})

func compile(name, src string) (*Template, error) {
	m, err := template.New(name).Funcs(parseFuncs).Option("missingkey=zero").Parse(src)
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	if err := noRecursion(m); err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	for _, d := range m.Templates() {
		if d.Tree == nil || d.Tree.Root == nil {
			continue
		}
		d.Tree.Root.Nodes = slices.Insert(d.Tree.Root.Nodes, 0, tick())
		walk(d.Tree.Root, func(n parse.Node) {
			if r, ok := n.(*parse.RangeNode); ok {
				if r.List == nil {
					r.List = &parse.ListNode{NodeType: parse.NodeList, Pos: r.Pos}
				}
				r.List.Nodes = slices.Insert(r.List.Nodes, 0, tick())
			}
		})
	}
	return &Template{name: name, lim: defaultLimits, master: m}, nil
}

// tick is an empty text node: text/template writes it, with nothing in
// it, to the render's writer, which checks the bounds on every write.
// It changes no html context and no output.
func tick() parse.Node { return &parse.TextNode{NodeType: parse.NodeText, Text: []byte{}} }

// walk calls fn on every node of list l and under them.
func walk(l *parse.ListNode, fn func(parse.Node)) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		fn(n)
		switch n := n.(type) {
		case *parse.IfNode:
			walk(n.List, fn)
			walk(n.ElseList, fn)
		case *parse.RangeNode:
			walk(n.List, fn)
			walk(n.ElseList, fn)
		case *parse.WithNode:
			walk(n.List, fn)
			walk(n.ElseList, fn)
		}
	}
}

// noRecursion fails when a template of m calls itself, directly or
// through others.
func noRecursion(m *template.Template) error {
	calls := map[string][]string{}
	for _, d := range m.Templates() {
		if d.Tree == nil || d.Tree.Root == nil {
			continue
		}
		walk(d.Tree.Root, func(n parse.Node) {
			if c, ok := n.(*parse.TemplateNode); ok {
				calls[d.Name()] = append(calls[d.Name()], c.Name)
			}
		})
	}
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(name string) error
	visit = func(name string) error {
		switch state[name] {
		case open:
			i := slices.Index(path, name)
			return fmt.Errorf("template %q calls itself (%s); a template may not recurse", name, joinCalls(append(path[i:], name)))
		case done:
			return nil
		}
		state[name] = open
		path = append(path, name)
		for _, c := range calls[name] {
			if err := visit(c); err != nil {
				return err
			}
		}
		path = path[:len(path)-1]
		state[name] = done
		return nil
	}
	names := make([]string, 0, len(calls))
	for name := range calls {
		names = append(names, name)
	}
	slices.Sort(names) // the same error for the same template
	for _, name := range names {
		if err := visit(name); err != nil {
			return err
		}
	}
	return nil
}

func joinCalls(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, " → ")
}

// Execute renders v with t, bounded (limits.go) and canceled with ctx:
// the page, or an error and no page. The error wraps ErrTooLarge,
// ErrTimeout or ErrCanceled when a bound stopped the render.
func (t *Template) Execute(ctx context.Context, v any) (string, error) {
	e, err := t.exec()
	if err != nil {
		return "", fmt.Errorf("render %s: %w", t.name, err)
	}
	defer t.execs.Put(e)
	e.r.start(ctx, t.lim)
	defer e.r.end()
	err = e.t.Execute(&e.r, v)
	if e.r.err != nil {
		err = e.r.err
	}
	if err != nil {
		return "", fmt.Errorf("render %s: %w", t.name, err)
	}
	return string(e.r.out), nil
}

// exec is a clone of t's master free for one render.
func (t *Template) exec() (*exec, error) {
	if e, ok := t.execs.Get().(*exec); ok {
		return e, nil
	}
	c, err := t.master.Clone()
	if err != nil {
		return nil, err
	}
	e := &exec{t: c}
	c.Funcs(funcsFor(&e.r))
	return e, nil
}
