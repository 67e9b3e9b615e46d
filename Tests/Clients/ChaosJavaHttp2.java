import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Java's built-in HttpClient over HTTP/2, under `pushbox exec --chaos …`: two pushes one after
 * the other on one client, each printed as its status or the exception it ended in. */
public class ChaosJavaHttp2 {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        for (int n = 0; n < 2; n++) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("https://api.sandbox.push.apple.com/3/device/" + args[1]))
                .header("authorization", "bearer " + args[0]).header("apns-topic", "dev.pushbox.sample")
                .header("apns-id", "00000000-0000-0000-0000-00000000000" + (n + 1))
                .POST(HttpRequest.BodyPublishers.ofString("{\"aps\":{\"alert\":\"java " + n + "\"}}")).build();
            try {
                System.out.println(client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
            } catch (Exception e) {
                System.out.println(e.getClass().getSimpleName());
            }
        }
    }
}
