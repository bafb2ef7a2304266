/**
 * Streaming transport between the driver and graph workers, and between workers: length-prefixed frames over
 * TCP (Netty 4.1, NIO, pooled direct buffers), a mutual handshake over the job's secret before anything else, a
 * handful of message types, credit-based flow control for bulk row data, and optional AES-GCM on every frame.
 *
 * <h2>Use</h2>
 * Every participant runs one {@link org.yarngnn.app.transport.TransportServer} (port 0 by default: publish
 * {@code port()}), connects to others with {@code connect(host, port)} (retried), and receives through a
 * {@link org.yarngnn.app.transport.TransportListener} whose callbacks run on the event loop and must not block
 * ({@link org.yarngnn.app.transport.InboundQueue} hands them to a consumer thread). Send with
 * {@link org.yarngnn.app.transport.PeerConnection#send} (a future) or
 * {@link org.yarngnn.app.transport.PeerConnection#sendBlocking} (back-pressure). Release every received
 * {@link org.yarngnn.app.transport.StreamedMessage} (row blocks, application block types) once consumed. A lost peer is reported through
 * {@code onClosed(connection, cause)}: at once when its process dies (the socket closes), after the heartbeat
 * timeout when it goes silent.
 *
 * <h2>Authentication</h2>
 * Every transport has the job's {@link org.yarngnn.app.transport.TransportSecret} and the identity of its
 * participant ({@link org.yarngnn.app.transport.TransportOptions#secret()}, {@code identity()}; both required). A
 * connection reaches the listener only after the {@link org.yarngnn.app.transport.Handshake} proved the peer, and
 * {@link org.yarngnn.app.transport.PeerConnection#peerIdentity()} then says who it is; a connection that fails it
 * (wrong key, another protocol, garbage, a frame over the handshake bound, no handshake within
 * {@code handshakeTimeoutMillis}, default 5 s) is closed with a warning in the log (log4j: the yarn-gnn log file,
 * {@code yarn-gnn.log} beside a container's stdout) and never delivered. Servers bind one address
 * ({@code bindHost}, default 127.0.0.1), never all interfaces.
 *
 * <h2>Wire format</h2>
 * All fixed-width numbers are little-endian. vInt/vLong: 7 bits per byte, least significant group first, high bit
 * set when more bytes follow (negative values take 5 / 10 bytes). string: vInt byte count + UTF-8. bytes: vInt
 * count + bytes. A frame:
 * <pre>
 *   int32  length      bytes that follow (type + body), 1..maxFrameBytes
 *   byte   type
 *   ...    body        per type, below
 * </pre>
 * <table>
 *   <caption>Message types</caption>
 *   <tr><th>type</th><th>message</th><th>body</th></tr>
 *   <tr><td>1</td><td>{@link org.yarngnn.app.transport.Hello}</td>
 *       <td>vInt workerIndex, string host, vInt port</td></tr>
 *   <tr><td>2</td><td>{@link org.yarngnn.app.transport.PeerTable}</td>
 *       <td>vInt n, then n endpoints as in Hello</td></tr>
 *   <tr><td>5</td><td>{@link org.yarngnn.app.transport.Failure}</td><td>string reason</td></tr>
 *   <tr><td>6</td><td>{@link org.yarngnn.app.transport.RowBlock}</td>
 *       <td>int32 stream, int32 layer, int32 chunk, byte flags (1 = last), int32 width, int32 count,
 *       int32[count] rows, float32[count * width] values (row-major)</td></tr>
 *   <tr><td>8, 9</td><td>handshake challenge, proof</td><td>below; refused after the handshake</td></tr>
 *   <tr><td>32-125</td><td>application types</td>
 *       <td>registered with {@link org.yarngnn.app.transport.MessageCodec.Builder#register}</td></tr>
 *   <tr><td>126</td><td>heartbeat (internal)</td><td>empty</td></tr>
 *   <tr><td>127</td><td>credit grant (internal)</td><td>int32 stream (-1 = every stream), vInt credits</td></tr>
 * </table>
 * Integers in the row block are fixed-width so its arrays are single bulk copies on both ends.
 *
 * <h2>Handshake frames</h2>
 * Both ends send at once, as their first frame, a challenge; on the peer's challenge each answers with its proof;
 * each checks the peer's proof (constant time). Until then frames are at most 100 bytes (type byte included).
 * <pre>
 *   type 8  challenge   byte version (1), byte flags (1 = encrypt frames), byte[32] nonce (SecureRandom),
 *                       string identity (1..64 bytes of UTF-8, no control characters)
 *   type 9  proof       byte[32] HMAC-SHA256(secret, "yarn-gnn transport proof 1" || dir ||
 *                         len(cA) || cA || len(cC) || cC)
 * </pre>
 * {@code cA}, {@code cC}: the challenge bodies of the accepting and the connecting end, as sent; {@code len}: one
 * byte; {@code dir}: {@code 'A'} in the acceptor's proof, {@code 'C'} in the connector's. So a proof binds the
 * direction, both fresh nonces and both claimed identities: it cannot be replayed on another connection or
 * reflected back, and an identity cannot be swapped. Both ends must have the same flags (a mismatch closes).
 *
 * <h2>Encryption</h2>
 * With {@code encrypt} (the job's {@code -D yarngnn.transport.encrypt=true}), every frame after the proofs is
 * {@code int32 length + 16, AES-256-GCM(type, body), 16-byte tag} under the key of its direction:
 * {@code HKDF-SHA256(ikm = secret, salt = nonceA || nonceC, info = "yarn-gnn transport frames 1 from acceptor"}
 * (or {@code "... from connector"}){@code )}, 32 bytes, with a 96-bit nonce: 4 zero bytes and the frame's 64-bit
 * big-endian counter in that direction, from 0. A frame that does not authenticate (altered, dropped, replayed,
 * reordered) closes the connection as a malformed frame. Without encryption the handshake keeps out every process
 * without the secret, but not an attacker on the path who can rewrite TCP streams after it.
 *
 * <h2>Flow control</h2>
 * Each side's first frame is a credit grant on stream -1: the number of credited messages ({@code creditsPerStream})
 * the peer may have in flight on every stream. Credited messages are those implementing
 * {@link org.yarngnn.app.transport.StreamedMessage}: row blocks, and application types such as a job's
 * construction blocks (each names its stream; -1 is reserved). Sending a block takes one credit of its stream; the
 * receiver sends a grant of 1 when the consumer releases a block. A sender with no credit queues the block unencoded (its arrays
 * are not copied), so a receiver holds at most {@code creditsPerStream} frames per stream and sender, and a sender
 * encodes at most as many; encoding also pauses while the socket's write buffer is above its high water mark.
 * A peer that exceeds its credit, sends an unknown type or a malformed body is disconnected with the reason (the
 * listener's {@code onClosed} cause says "malformed frame: ..."); nothing of that frame is delivered. Every decoder
 * bounds each count and width it reads by the bytes left in the frame before allocating for it.
 * Control messages are not flow-controlled and may overtake blocks waiting for credit.
 */
package org.yarngnn.app.transport;
