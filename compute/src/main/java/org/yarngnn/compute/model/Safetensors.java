package org.yarngnn.compute.model;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.yarngnn.compute.json.Json;

/**
 * The safetensors file format, float32 only: an 8-byte little-endian header length N, N bytes of JSON
 * {@code {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {string: string}}}, then
 * the raw little-endian tensor bytes, offsets relative to the end of the header.
 *
 * <p>Reading checks what the reference implementation checks: the header is a UTF-8 JSON object of at most
 * {@link #MAX_HEADER_BYTES}, each tensor's byte range matches its shape, the ranges tile the data section
 * exactly (no gaps, overlaps or trailing bytes). Any dtype but F32 is refused, naming the tensor. Errors are
 * {@link ModelFormatException}s whose message starts with the caller's {@code where}.
 *
 * <p>Writing does what the Python writer does for an all-F32 file: tensors in name order, data contiguous in
 * that order, {@code __metadata__} first, header padded with spaces to a multiple of 8.
 */
public final class Safetensors {
  /** The reference implementation refuses headers above 100 MB; so do we. */
  public static final long MAX_HEADER_BYTES = 100_000_000L;

  public static final String METADATA_KEY = "__metadata__";

  private static final int IO_CHUNK = 1 << 16;

  private Safetensors() {}

  /** What a file holds: tensors in data order, and the free-form string metadata (possibly empty). */
  public record Contents(Map<String, String> metadata, Map<String, Tensor> tensors) {}

  public static Contents read(byte[] bytes, String where) {
    try {
      return read(new ByteArrayInputStream(bytes), bytes.length, where);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
  }

  /** Reads a whole file from {@code in} (not closed); tensors are decoded straight from the stream. */
  public static Contents read(InputStream in, String where) throws IOException {
    return read(in, -1, where);
  }

  /**
   * Reads a whole file of {@code fileLength} bytes (-1: unknown) from {@code in} (not closed). With a known length
   * the header's promises are checked against it before anything is allocated for the data: a header longer
   * than the file, or data ranges that the file does not hold (or leaves bytes after), are refused at once.
   * With an unknown length, tensors grow as their bytes arrive, so a lying header costs no more memory than
   * the bytes really there.
   */
  public static Contents read(InputStream in, long fileLength, String where) throws IOException {
    byte[] lengthBytes = new byte[8];
    int got = in.readNBytes(lengthBytes, 0, 8);
    if (got < 8) {
      throw new ModelFormatException(where + ": truncated: " + got + " bytes, a safetensors file starts with an"
          + " 8-byte header length");
    }
    long headerLength = ByteBuffer.wrap(lengthBytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
    if (headerLength < 2 || headerLength > MAX_HEADER_BYTES) {
      throw new ModelFormatException(where + ": header length " + Long.toUnsignedString(headerLength)
          + " is out of range (2.." + MAX_HEADER_BYTES + "); is this a safetensors file?");
    }
    if (fileLength >= 0 && headerLength > fileLength - 8) {
      throw new ModelFormatException(where + ": truncated: header of " + headerLength + " bytes, file has "
          + (fileLength - 8) + " after the length");
    }
    byte[] headerBytes = in.readNBytes((int) headerLength);
    if (headerBytes.length < headerLength) {
      throw new ModelFormatException(where + ": truncated: header of " + headerLength + " bytes, file has "
          + headerBytes.length + " after the length");
    }
    List<Entry> entries = new ArrayList<>();
    Map<String, String> metadata = parseHeader(headerBytes, where, entries);
    entries.sort(Comparator.comparingLong(Entry::begin));
    long expectBegin = 0;
    for (Entry e : entries) {
      if (e.begin != expectBegin) {
        throw new ModelFormatException(where + ": tensor '" + e.name + "' data_offsets [" + e.begin + ", "
            + e.end + "] " + (e.begin < expectBegin ? "overlap" : "leave a gap before")
            + " the previous tensor's data (ends at " + expectBegin + ")");
      }
      expectBegin = e.end;
    }
    if (fileLength >= 0 && 8 + headerLength + expectBegin != fileLength) {
      long holds = fileLength - 8 - headerLength;
      if (holds > expectBegin) {
        throw new ModelFormatException(where + ": bytes after the last tensor's data (the header accounts for "
            + expectBegin + " data bytes, the file holds " + holds + ")");
      }
      String cut = entries.stream().filter(e -> e.end > holds).findFirst().map(e -> e.name).orElse("?");
      throw new ModelFormatException(where + ": truncated: the header promises " + expectBegin
          + " data bytes, the file ends after " + holds + " (in tensor '" + cut + "')");
    }

    Map<String, Tensor> tensors = new LinkedHashMap<>();
    byte[] chunk = new byte[IO_CHUNK];
    ByteBuffer chunkBuffer = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);
    long dataRead = 0;
    for (Entry e : entries) {
      int count = (int) ((e.end - e.begin) / 4);
      // Known length: the file holds every promised byte (checked above). Unknown: grow as the bytes arrive.
      float[] values = new float[fileLength >= 0 ? count : Math.min(count, IO_CHUNK)];
      int filled = 0;
      while (filled < count) {
        if (filled == values.length) {
          values = Arrays.copyOf(values, (int) Math.min(count, 2L * values.length));
        }
        int want = Math.min(IO_CHUNK / 4, values.length - filled) * 4;
        int n = in.readNBytes(chunk, 0, want);
        dataRead += n;
        if (n < want) {
          throw new ModelFormatException(where + ": truncated: the header promises " + expectBegin
              + " data bytes, the file ends after " + dataRead + " (in tensor '" + e.name + "')");
        }
        chunkBuffer.clear();
        chunkBuffer.asFloatBuffer().get(values, filled, want / 4);
        filled += want / 4;
      }
      tensors.put(e.name, new Tensor(e.name, e.shape, values));
    }
    if (in.read() >= 0) {
      throw new ModelFormatException(where + ": " + "bytes after the last tensor's data (the header accounts for "
          + expectBegin + " data bytes)");
    }
    return new Contents(metadata, tensors);
  }

  private record Entry(String name, int[] shape, long begin, long end) {}

  private static Map<String, String> parseHeader(byte[] headerBytes, String where, List<Entry> out) {
    String text = Json.utf8OrNull(headerBytes, 0, headerBytes.length);
    if (text == null) {
      throw new ModelFormatException(where + ": header is not valid UTF-8");
    }
    if (!text.startsWith("{")) {
      throw new ModelFormatException(where + ": header does not start with '{'; is this a safetensors file?");
    }
    Object parsed;
    try {
      parsed = Json.parse(text);
    } catch (Json.ParseException e) {
      throw new ModelFormatException(where + ": header JSON " + e.getMessage(), e);
    }
    if (!(parsed instanceof Map<?, ?> header)) {
      throw new ModelFormatException(where + ": header is not a JSON object");
    }
    Map<String, String> metadata = new TreeMap<>();
    for (Map.Entry<?, ?> kv : header.entrySet()) {
      String name = (String) kv.getKey();
      if (name.equals(METADATA_KEY)) {
        if (!(kv.getValue() instanceof Map<?, ?> m)) {
          throw new ModelFormatException(where + ": " + METADATA_KEY + " must be an object of strings");
        }
        for (Map.Entry<?, ?> mv : m.entrySet()) {
          if (!(mv.getValue() instanceof String s)) {
            throw new ModelFormatException(where + ": " + METADATA_KEY + " value of '" + mv.getKey()
                + "' must be a string");
          }
          metadata.put((String) mv.getKey(), s);
        }
        continue;
      }
      out.add(entry(name, kv.getValue(), where));
    }
    return metadata;
  }

  private static Entry entry(String name, Object value, String where) {
    String at = where + ": tensor '" + name + "'";
    if (!(value instanceof Map<?, ?> info)) {
      throw new ModelFormatException(at + " must be an object with dtype, shape and data_offsets");
    }
    for (Object key : info.keySet()) {
      if (!key.equals("dtype") && !key.equals("shape") && !key.equals("data_offsets")) {
        throw new ModelFormatException(at + " has unknown field '" + key + "'");
      }
    }
    Object dtype = info.get("dtype");
    if (!(dtype instanceof String)) {
      throw new ModelFormatException(at + " has no dtype string");
    }
    if (!dtype.equals("F32")) {
      throw new ModelFormatException(at + " has dtype " + dtype + "; only F32 is supported (convert with"
          + " tensor.float() before saving)");
    }
    if (!(info.get("shape") instanceof List<?> shapeList)) {
      throw new ModelFormatException(at + " has no shape list");
    }
    int[] shape = new int[shapeList.size()];
    long elements = 1;
    for (int i = 0; i < shape.length; i++) {
      Object d = shapeList.get(i);
      if (!(d instanceof Long dim) || dim < 0 || dim > Integer.MAX_VALUE) {
        throw new ModelFormatException(at + " has an invalid shape " + shapeList);
      }
      shape[i] = (int) (long) dim;
      elements = Math.multiplyHigh(elements, dim) != 0 ? Long.MAX_VALUE : elements * dim;
    }
    if (elements > Tensor.MAX_VALUES) {
      throw new ModelFormatException(at + " has " + elements + " elements; at most 2^31 per tensor");
    }
    if (!(info.get("data_offsets") instanceof List<?> offsets) || offsets.size() != 2
        || !(offsets.get(0) instanceof Long begin) || !(offsets.get(1) instanceof Long end)
        || begin < 0 || end < begin) {
      throw new ModelFormatException(at + " has invalid data_offsets " + info.get("data_offsets")
          + " (expected [begin, end] with 0 <= begin <= end)");
    }
    if (end - begin != elements * 4) {
      throw new ModelFormatException(at + " data_offsets [" + begin + ", " + end + "] hold " + (end - begin)
          + " bytes; shape " + shapeList + " of F32 needs " + elements * 4);
    }
    return new Entry(name, shape, begin, end);
  }

  /** The file's bytes; see {@link #write}. */
  public static byte[] toBytes(Collection<Tensor> tensors, Map<String, String> metadata) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      write(tensors, metadata, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * Writes {@code tensors} (names unique, not {@value #METADATA_KEY}) in name order with {@code metadata}
   * (may be empty or null) to {@code out}, which is not closed.
   */
  public static void write(Collection<Tensor> tensors, Map<String, String> metadata, OutputStream out)
      throws IOException {
    TreeMap<String, Tensor> byName = new TreeMap<>();
    for (Tensor t : tensors) {
      if (t.name().equals(METADATA_KEY)) {
        throw new IllegalArgumentException("a tensor cannot be named " + METADATA_KEY);
      }
      if (byName.put(t.name(), t) != null) {
        throw new IllegalArgumentException("two tensors named '" + t.name() + "'");
      }
    }
    Map<String, Object> header = new LinkedHashMap<>();
    if (metadata != null && !metadata.isEmpty()) {
      header.put(METADATA_KEY, new TreeMap<>(metadata));
    }
    long offset = 0;
    for (Tensor t : byName.values()) {
      Map<String, Object> info = new LinkedHashMap<>();
      info.put("dtype", "F32");
      List<Object> shape = new ArrayList<>();
      for (int d : t.shape()) {
        shape.add((long) d);
      }
      info.put("shape", shape);
      long end = offset + 4L * t.data().length;
      info.put("data_offsets", List.of(offset, end));
      header.put(t.name(), info);
      offset = end;
    }
    byte[] json = Json.writeCompact(header).getBytes(StandardCharsets.UTF_8);
    int padded = (json.length + 7) / 8 * 8;
    ByteBuffer head = ByteBuffer.allocate(8 + padded).order(ByteOrder.LITTLE_ENDIAN);
    head.putLong(padded).put(json);
    while (head.hasRemaining()) {
      head.put((byte) ' ');
    }
    out.write(head.array());

    byte[] chunk = new byte[IO_CHUNK];
    ByteBuffer chunkBuffer = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);
    for (Tensor t : byName.values()) {
      float[] v = t.data();
      for (int from = 0; from < v.length; from += IO_CHUNK / 4) {
        int n = Math.min(IO_CHUNK / 4, v.length - from);
        chunkBuffer.clear();
        chunkBuffer.asFloatBuffer().put(v, from, n);
        out.write(chunk, 0, n * 4);
      }
    }
  }
}
