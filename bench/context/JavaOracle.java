// Independent oracle for `bench:context` on Java: javac's own attribution (the Compiler Tree API)
// says which declaration every identifier and member name in the given files refers to. Only
// declarations in another of the given files are printed (the JDK and libraries have no source
// here, and same-file names are in the buffer already), in the format the other oracles share: one
// JSON line per file, `{"path": "a/B.java", "refs": [[line, col, name, [[defPath, defLine, name, kind]]]]}`.
// Lines and columns are zero-based; `defLine` is the line of the declaration's name. Run as a single-file source
// program: `java JavaOracle.java ROOT FILE...` (paths relative to ROOT). Compile errors (a missing
// dependency jar) only leave the names they affect unattributed.
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Name;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaOracle {
  public static void main(String[] args) throws IOException {
    Path root = Path.of(args[0]).toAbsolutePath().normalize();
    List<Path> files = new ArrayList<>();
    for (int i = 1; i < args.length; i++) files.add(root.resolve(args[i]));
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> ignored = new DiagnosticCollector<>();
    try (StandardJavaFileManager fm = compiler.getStandardFileManager(ignored, null, StandardCharsets.UTF_8)) {
      JavacTask task = (JavacTask) compiler.getTask(null, fm, ignored, List.of("-proc:none", "-implicit:none", "-Xlint:none"), null, fm.getJavaFileObjectsFromPaths(files));
      Iterable<? extends CompilationUnitTree> units = task.parse();
      task.analyze();
      Trees trees = Trees.instance(task);
      StringBuilder out = new StringBuilder();
      for (CompilationUnitTree unit : units) {
        Uses uses = new Uses(root, trees, unit);
        uses.scan(unit, null);
        out.append("{\"path\":").append(json(relative(root, unit))).append(",\"refs\":[").append(String.join(",", uses.refs)).append("]}\n");
      }
      System.out.print(out);
    }
  }

  /** Visits the names of one file and prints those whose declaration is in another given file. */
  static final class Uses extends TreePathScanner<Void, Void> {
    private final Path root;
    private final Trees trees;
    private final SourcePositions positions;
    private final CompilationUnitTree unit;
    final List<String> refs = new ArrayList<>();

    Uses(Path root, Trees trees, CompilationUnitTree unit) {
      this.root = root;
      this.trees = trees;
      this.positions = trees.getSourcePositions();
      this.unit = unit;
    }

    @Override
    public Void visitIdentifier(IdentifierTree node, Void unused) {
      record(node.getName());
      return super.visitIdentifier(node, unused);
    }

    @Override
    public Void visitMemberSelect(MemberSelectTree node, Void unused) {
      record(node.getIdentifier());
      return super.visitMemberSelect(node, unused);
    }

    @Override
    public Void visitMemberReference(MemberReferenceTree node, Void unused) {
      record(node.getName());
      return super.visitMemberReference(node, unused);
    }

    private void record(Name name) {
      TreePath here = getCurrentPath();
      Element element = trees.getElement(here);
      if (element == null || element.getKind() == ElementKind.PACKAGE) return;
      TreePath declaration = trees.getPath(element);
      if (declaration == null) return; // the JDK or a library: no source here
      CompilationUnitTree target = declaration.getCompilationUnit();
      if (target == unit) return;
      // The name ends where the use ends (`a.b.name`, `name`); its line is the line it is written on.
      long end = positions.getEndPosition(unit, here.getLeaf());
      if (end < 0) return;
      long at = Math.max(0, end - name.length());
      long useLine = unit.getLineMap().getLineNumber(at) - 1;
      long useColumn = unit.getLineMap().getColumnNumber(at) - 1;
      String simple = element.getKind() == ElementKind.CONSTRUCTOR ? element.getEnclosingElement().getSimpleName().toString() : element.getSimpleName().toString();
      long defLine = nameLine(target, declaration.getLeaf(), simple);
      refs.add("[" + useLine + "," + useColumn + "," + json(name.toString()) + ",[[" + json(relative(root, target)) + "," + defLine + "," + json(simple) + "," + json(element.getKind().toString()) + "]]]");
    }

    /** The line of the declaration's name: after its annotations and modifiers, which may span lines. */
    private long nameLine(CompilationUnitTree target, Tree declaration, String name) {
      long start = positions.getStartPosition(target, declaration);
      long at = start;
      try {
        String text = target.getSourceFile().getCharContent(true).toString();
        int found = text.indexOf(name, (int) start);
        if (found >= 0) at = found;
      } catch (IOException e) {
        // keep the declaration's start
      }
      return target.getLineMap().getLineNumber(at) - 1;
    }
  }

  static String relative(Path root, CompilationUnitTree unit) {
    return root.relativize(Path.of(unit.getSourceFile().toUri()).toAbsolutePath().normalize()).toString();
  }

  static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}
