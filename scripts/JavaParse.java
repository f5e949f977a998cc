// Parses each given Java file with javac's own parser (no compilation,
// no class path) and prints its first syntax error, or that it has none,
// one tab-separated line per file: `path  line(1-based)|ok  message`, as
// examples/validate.rs prints Eddi's. Used by scripts/brace-compare:
// `java scripts/JavaParse.java <file>...` (a single-file source program).

import com.sun.source.util.JavacTask;
import java.io.File;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaParse {
    public static void main(String[] args) throws Exception {
        var compiler = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null);
        for (String path : args) {
            var diagnostics = new DiagnosticCollector<JavaFileObject>();
            Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromFiles(List.of(new File(path)));
            var task = (JavacTask) compiler.getTask(null, files, diagnostics, List.of("-proc:none"), null, units);
            task.parse();
            var first = diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .findFirst();
            if (first.isPresent()) {
                var d = first.get();
                String message = d.getMessage(null).lines().findFirst().orElse("");
                System.out.println(path + "\t" + d.getLineNumber() + "\t" + message);
            } else {
                System.out.println(path + "\tok\t");
            }
        }
    }
}
