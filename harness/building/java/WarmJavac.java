import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * javac kept warm: the JDK's own compiler, run once per request in this one JVM, printing
 * exactly what the javac command prints (it is the same Tool.run that command calls).
 *
 * Protocol, one request at a time, UTF-8 on stdin/stdout:
 *   request: a line with the number of arguments N, then N lines, one argument each;
 *   reply:   a line "STATUS BYTES", then BYTES bytes: javac's output for that request.
 * Before the first request it compiles a small class of its own (so the compiler's code is
 * loaded and compiled by the JIT) and prints "ready".
 */
public class WarmJavac {
    public static void main(String[] args) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        System.setOut(quiet);  // nothing but replies reaches the pipe
        System.setErr(quiet);
        if (javac == null) {
            out.write("no compiler\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return;
        }
        warmUp(javac);
        out.write("ready\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            int count = Integer.parseInt(line.trim());
            String[] words = new String[count];
            for (int i = 0; i < count; i++) {
                words[i] = in.readLine();
                if (words[i] == null) return;
            }
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            int status;
            try {
                status = javac.run(null, log, log, words);
            } catch (Throwable problem) {  // a crash of the compiler: the caller runs plain javac instead
                status = -1;
                log.reset();
                log.write(String.valueOf(problem).getBytes(StandardCharsets.UTF_8));
            }
            byte[] text = log.toByteArray();
            out.write((status + " " + text.length + "\n").getBytes(StandardCharsets.US_ASCII));
            out.write(text);
            out.flush();
        }
    }

    private static void warmUp(JavaCompiler javac) throws IOException {
        Path folder = Files.createTempDirectory("warm");
        Path source = folder.resolve("Warm.java");
        Files.writeString(source, "import java.util.*;\npublic class Warm {\n"
            + "  public static void main(String[] a) { Scanner in = new Scanner(System.in);\n"
            + "    List<Integer> l = new ArrayList<>(); Map<String, Integer> m = new HashMap<>();\n"
            + "    while (in.hasNext()) { String s = in.next(); m.put(s, s.length()); l.add(s.length()); }\n"
            + "    System.out.printf(\"%d %s%n\", l.size(), m); } }\n");
        for (int i = 0; i < 3; i++) {
            javac.run(null, OutputStream.nullOutputStream(), OutputStream.nullOutputStream(),
                      "-proc:none", "-d", folder.toString(), source.toString());
        }
        Files.deleteIfExists(folder.resolve("Warm.class"));
        Files.deleteIfExists(source);
        Files.deleteIfExists(folder);
    }
}
