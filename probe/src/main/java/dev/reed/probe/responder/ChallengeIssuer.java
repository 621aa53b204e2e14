package dev.reed.probe.responder;

import dev.reed.probe.NanoTicker;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A2S challenges without per-client state, as Source servers do since December 2020 (the
 * challenge stops the responder from reflecting large replies at spoofed addresses): the
 * challenge is a MAC of the client's address under a secret that rotates every
 * {@code rotationNanos}; a challenge from the current or the previous secret is accepted. Not
 * thread-safe (one responder thread).
 */
final class ChallengeIssuer {
  private final NanoTicker ticker;
  private final long rotationNanos;
  private final SecureRandom random = new SecureRandom();
  private final Mac mac;
  private byte[] current;
  private byte[] previous;
  private long epoch;

  ChallengeIssuer(NanoTicker ticker, long rotationNanos) {
    this.ticker = ticker;
    this.rotationNanos = rotationNanos;
    try {
      this.mac = Mac.getInstance("HmacSHA256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 missing from the JDK", e);
    }
    this.epoch = Math.floorDiv(ticker.read(), rotationNanos);
    this.current = newSecret();
    this.previous = newSecret();
  }

  int issue(InetSocketAddress client) {
    rotate();
    return challenge(current, client);
  }

  boolean valid(InetSocketAddress client, int challenge) {
    rotate();
    return challenge == challenge(current, client) || challenge == challenge(previous, client);
  }

  private void rotate() {
    long now = Math.floorDiv(ticker.read(), rotationNanos);
    if (now == epoch) {
      return;
    }
    previous = now == epoch + 1 ? current : newSecret();
    current = newSecret();
    epoch = now;
  }

  private byte[] newSecret() {
    byte[] s = new byte[32];
    random.nextBytes(s);
    return s;
  }

  private int challenge(byte[] secret, InetSocketAddress client) {
    try {
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    mac.update(client.getAddress().getAddress());
    mac.update((byte) (client.getPort() >> 8));
    mac.update((byte) client.getPort());
    int c = ByteBuffer.wrap(mac.doFinal()).getInt();
    // -1 (FF FF FF FF) means "send me a challenge" in A2S_PLAYER/RULES; 0 reads as "none".
    return c == -1 || c == 0 ? 1 : c;
  }
}
