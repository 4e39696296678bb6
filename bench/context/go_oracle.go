// The independent Go oracle of bench:context (bench/context/oracle.ts runs it): Go's own type checker
// (go/types) over every package of a repository, reporting for each identifier use the file and line
// of the definition it denotes, when that definition is in another file of the repository.
//
// Input on stdin: {"root": "/abs/repo", "files": ["a.go", "doc/b.go", ...]}. Output: one JSON line per
// file, {"path": "a.go", "refs": [[line, col, name, [[defPath, defLine, name, kind]]]]}, zero-based
// lines, as bench/context/jedi_oracle.py writes them.
//
// Imports: a folder of the repository is type-checked from source (module path from the root go.mod,
// or `std` when the repository is GOROOT/src); the standard library otherwise comes from the
// toolchain's export data; anything else (third-party modules that are not in the tree) is an empty
// package, so uses of it resolve to nothing, which costs no repository definition. Files are grouped by
// folder and package clause (an external `_test` package is its own group) and filtered by the build
// constraints of this GOOS/GOARCH, as `go build` would.
package main

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type input struct {
	Root  string   `json:"root"`
	Files []string `json:"files"`
}

type group struct {
	dir, pkg string
	files    []string
}

type oracle struct {
	root    string
	module  string
	fset    *token.FileSet
	std     types.Importer
	groups  map[string][]*group // folder → groups (the package and its external test package)
	parsed  map[string]*ast.File
	checked map[string]*types.Package // folder → its non-test package, type-checked
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		panic(err)
	}
	fset := token.NewFileSet()
	// The same FileSet as the sources: an object's position must name its own file, not a repository one.
	o := &oracle{root: in.Root, fset: fset, std: importer.ForCompiler(fset, "gc", nil), groups: map[string][]*group{}, parsed: map[string]*ast.File{}, checked: map[string]*types.Package{}}
	if data, err := os.ReadFile(filepath.Join(in.Root, "go.mod")); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
				o.module = strings.Trim(f[1], `"`)
			}
		}
	}
	ctxt := build.Default
	for _, rel := range in.Files {
		dir := filepath.ToSlash(filepath.Dir(rel))
		if ok, err := ctxt.MatchFile(filepath.Join(in.Root, filepath.Dir(rel)), filepath.Base(rel)); err != nil || !ok {
			continue
		}
		file, err := parser.ParseFile(o.fset, filepath.Join(in.Root, rel), nil, parser.SkipObjectResolution)
		if file == nil || file.Name == nil {
			continue
		}
		_ = err // a file with syntax errors still yields what parsed
		o.parsed[rel] = file
		name := file.Name.Name
		var g *group
		for _, existing := range o.groups[dir] {
			if existing.pkg == name {
				g = existing
			}
		}
		if g == nil {
			g = &group{dir: dir, pkg: name}
			o.groups[dir] = append(o.groups[dir], g)
		}
		g.files = append(g.files, rel)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	dirs := make([]string, 0, len(o.groups))
	for dir := range o.groups {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		for _, g := range o.groups[dir] {
			info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
			files := o.files(g.files)
			o.check(dir, files, info)
			o.report(out, g.files, info)
		}
	}
}

func (o *oracle) files(rels []string) []*ast.File {
	out := make([]*ast.File, 0, len(rels))
	for _, rel := range rels {
		out = append(out, o.parsed[rel])
	}
	return out
}

func (o *oracle) check(dir string, files []*ast.File, info *types.Info) *types.Package {
	conf := types.Config{Importer: o, Error: func(error) {}, FakeImportC: true}
	pkg, _ := conf.Check(o.importPath(dir), o.fset, files, info)
	return pkg
}

// importPath names a folder as the go command would (see src/core/graph/goModules.ts goImportPath).
func (o *oracle) importPath(dir string) string {
	rest := dir
	if rest == "." {
		rest = ""
	}
	switch {
	case o.module == "std":
		return rest
	case o.module != "" && rest == "":
		return o.module
	case o.module != "":
		return o.module + "/" + rest
	}
	return rest
}

// Import: a folder of the repository from source, the standard library from export data, else empty.
func (o *oracle) Import(path string) (*types.Package, error) {
	dir := ""
	switch {
	case o.module == "std":
		dir = path
		if _, ok := o.groups[dir]; !ok {
			dir = "vendor/" + path
		}
	case o.module != "" && (path == o.module || strings.HasPrefix(path, o.module+"/")):
		dir = strings.TrimPrefix(strings.TrimPrefix(path, o.module), "/")
		if dir == "" {
			dir = "."
		}
	}
	if _, ok := o.groups[dir]; ok && dir != "" {
		if pkg, ok := o.checked[dir]; ok {
			return pkg, nil
		}
		var files []string
		for _, g := range o.groups[dir] {
			if !strings.HasSuffix(g.pkg, "_test") {
				for _, f := range g.files {
					if !strings.HasSuffix(f, "_test.go") {
						files = append(files, f)
					}
				}
			}
		}
		o.checked[dir] = types.NewPackage(path, "") // breaks import cycles while checking
		pkg := o.check(dir, o.files(files), &types.Info{})
		o.checked[dir] = pkg
		return pkg, nil
	}
	if pkg, err := o.std.Import(path); err == nil {
		return pkg, nil
	}
	name := path[strings.LastIndex(path, "/")+1:]
	pkg := types.NewPackage(path, name)
	pkg.MarkComplete()
	return pkg, nil
}

func (o *oracle) report(out *bufio.Writer, rels []string, info *types.Info) {
	type ref struct {
		line, col int
		name      string
		defs      [][]interface{}
	}
	byFile := map[string][]ref{}
	for id, obj := range info.Uses {
		if obj == nil || !obj.Pos().IsValid() {
			continue
		}
		if _, isPkg := obj.(*types.PkgName); isPkg {
			continue
		}
		def := o.fset.Position(obj.Pos())
		use := o.fset.Position(id.Pos())
		defRel, err := filepath.Rel(o.root, def.Filename)
		if err != nil || strings.HasPrefix(defRel, "..") || def.Filename == use.Filename {
			continue
		}
		useRel, _ := filepath.Rel(o.root, use.Filename)
		byFile[useRel] = append(byFile[useRel], ref{use.Line - 1, use.Column - 1, id.Name, [][]interface{}{{filepath.ToSlash(defRel), def.Line - 1, obj.Name(), kindOf(obj)}}})
	}
	for _, rel := range rels {
		refs := byFile[rel]
		sort.Slice(refs, func(i, j int) bool {
			if refs[i].line != refs[j].line {
				return refs[i].line < refs[j].line
			}
			return refs[i].col < refs[j].col
		})
		rows := make([][]interface{}, 0, len(refs))
		for _, r := range refs {
			rows = append(rows, []interface{}{r.line, r.col, r.name, r.defs})
		}
		line, _ := json.Marshal(map[string]interface{}{"path": filepath.ToSlash(rel), "refs": rows})
		out.Write(line)
		out.WriteByte('\n')
	}
}

func kindOf(obj types.Object) string {
	switch obj.(type) {
	case *types.Func:
		return "func"
	case *types.Var:
		return "var"
	case *types.Const:
		return "const"
	case *types.TypeName:
		return "type"
	}
	return "object"
}
