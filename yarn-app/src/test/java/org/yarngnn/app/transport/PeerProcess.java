package org.yarngnn.app.transport;

/**
 * A worker stand-in run as its own JVM by {@link FailureDetectionTest}: connects to the given port, says hello
 * and waits to be killed.
 */
public final class PeerProcess {
  private PeerProcess() {}

  public static void main(String[] args) throws Exception {
    TransportClient client = new TransportClient(TransportTesting.quick().build(), new InboundQueue());
    client.start();
    PeerConnection driver = client.connect(args[0], Integer.parseInt(args[1]));
    driver.sendBlocking(new Hello(7, args[0], 0));
    Thread.sleep(60_000);
    client.stop();
  }
}
