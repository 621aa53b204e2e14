package dev.reed.agent.beacon;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A JDK WebSocket client that queues what it receives: the browser's side in these tests. */
final class WsClient implements AutoCloseable {
  final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
  final CompletableFuture<Integer> closeCode = new CompletableFuture<>();
  final WebSocket ws;

  WsClient(HttpClient http, String url, String origin) {
    WebSocket.Builder b = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
    if (origin != null) b.header("Origin", origin);
    StringBuilder text = new StringBuilder();
    ws = b.buildAsync(URI.create(url), new WebSocket.Listener() {
      @Override
      public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
        text.append(data);
        if (last) {
          received.add(text.toString());
          text.setLength(0);
        }
        w.request(1);
        return null;
      }

      @Override
      public CompletionStage<?> onBinary(WebSocket w, ByteBuffer data, boolean last) {
        byte[] b = new byte[data.remaining()];
        data.get(b);
        received.add(b);
        w.request(1);
        return null;
      }

      @Override
      public CompletionStage<?> onClose(WebSocket w, int statusCode, String reason) {
        closeCode.complete(statusCode);
        return null;
      }

      @Override
      public void onError(WebSocket w, Throwable error) {
        closeCode.completeExceptionally(error);
      }
    }).join();
  }

  WsClient(String url) {
    this(HttpClient.newHttpClient(), url, null);
  }

  String echo(String text) throws InterruptedException {
    ws.sendText(text, true).join();
    return (String) received.poll(5, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    if (!ws.isOutputClosed()) ws.sendClose(WebSocket.NORMAL_CLOSURE, "done");
    ws.abort();
  }
}
