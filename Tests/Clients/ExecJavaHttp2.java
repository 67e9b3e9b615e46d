import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Java's built-in HttpClient over HTTP/2 posting to Apple's sandbox host. */
public class JavaHttp2 {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://api.sandbox.push.apple.com/3/device/" + args[1]))
            .header("authorization", "bearer " + args[0]).header("apns-topic", "dev.pushbox.sample").header("apns-push-type", "alert")
            .POST(HttpRequest.BodyPublishers.ofString("{\"aps\":{\"alert\":{\"title\":\"java\",\"body\":\"HttpClient\"}}}")).build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.statusCode() + " " + response.version() + " " + (response.body().isEmpty() ? "-" : response.body()));
    }
}
