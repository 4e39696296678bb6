// Independent oracle for `bench:context` on Java: javac's own attribution (the Compiler Tree API)
// says which declaration every identifier and member name in the given files refers to. Only
// declarations in another of the given files are printed (the JDK and libraries have no source
// here, and same-file names are in the buffer already), one JSON object per line:
//   {"file": "a/B.java", "line": 12, "path": "a/C.java", "defLine": 40, "name": "run", "kind": "METHOD"}
// Lines are zero-based; `defLine` is the line of the declaration's name. Run as a single-file source
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
      for (CompilationUnitTree unit : units) new Uses(root, trees, unit, out).scan(unit, null);
      System.out.print(out);
    }
  }

  /** Visits the names of one file and prints those whose declaration is in another given file. */
  static final class Uses extends TreePathScanner<Void, Void> {
    private final Path root;
    private final Trees trees;
    private final SourcePositions positions;
    private final CompilationUnitTree unit;
    private final StringBuilder out;

    Uses(Path root, Trees trees, CompilationUnitTree unit, StringBuilder out) {
      this.root = root;
      this.trees = trees;
      this.positions = trees.getSourcePositions();
      this.unit = unit;
      this.out = out;
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
      long useLine = unit.getLineMap().getLineNumber(Math.max(0, end - 1)) - 1;
      String simple = element.getKind() == ElementKind.CONSTRUCTOR ? element.getEnclosingElement().getSimpleName().toString() : element.getSimpleName().toString();
      long defLine = nameLine(target, declaration.getLeaf(), simple);
      Path file = Path.of(unit.getSourceFile().toUri()).toAbsolutePath().normalize();
      Path defFile = Path.of(target.getSourceFile().toUri()).toAbsolutePath().normalize();
      out.append("{\"file\":").append(json(root.relativize(file).toString()))
          .append(",\"line\":").append(useLine)
          .append(",\"path\":").append(json(root.relativize(defFile).toString()))
          .append(",\"defLine\":").append(defLine)
          .append(",\"name\":").append(json(simple))
          .append(",\"kind\":").append(json(element.getKind().toString()))
          .append("}\n");
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
