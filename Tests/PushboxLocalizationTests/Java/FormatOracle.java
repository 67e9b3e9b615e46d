import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * OpenJDK's String.format as the oracle for pushbox's java.util.Formatter: each input line is
 * LOCALE \t FORMAT \t ARG \t ARG…, with \n, \t and \\ escaped; each output line is "ok \t RESULT"
 * or "ex \t ExceptionSimpleName \t getMessage()", escaped the same way.
 */
public class FormatOracle {
    static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(n == 'n' ? '\n' : n == 't' ? '\t' : n);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t");
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            String[] parts = line.split("\t", -1);
            Locale locale = Locale.forLanguageTag(parts[0]);
            String format = unescape(parts[1]);
            List<Object> values = new ArrayList<>();
            for (int i = 2; i < parts.length; i++) values.add(unescape(parts[i]));
            try {
                String result = String.format(locale, format, values.toArray());
                out.append("ok\t").append(escape(result)).append('\n');
            } catch (Exception e) {
                out.append("ex\t").append(e.getClass().getSimpleName()).append('\t').append(escape(String.valueOf(e.getMessage()))).append('\n');
            }
        }
        System.out.write(out.toString().getBytes(StandardCharsets.UTF_8));
        System.out.flush();
    }
}
