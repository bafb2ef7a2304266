package org.yarngnn.io.text;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.ColumnSpec;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.io.table.TableWriter;

/**
 * Writes TSV or CSV (gzip when the name ends in .gz) with a {@code #} header line naming the columns. Floats
 * are written in their shortest round-trip form; whole numbers without a decimal point. In CSV a list field is
 * double-quoted.
 */
public final class TextTableWriter implements TableWriter {
  private final Path file;
  private final OutputStream out;
  private final byte separator;
  private final boolean csv;
  private final byte[] digits = new byte[20];

  public TextTableWriter(Configuration conf, Path file, TableFormat format, List<ColumnSpec> columns) {
    this.file = file;
    this.csv = format == TableFormat.CSV;
    this.separator = (byte) (csv ? ',' : '\t');
    try {
      OutputStream raw = file.getFileSystem(conf).create(file, true);
      if (TableFormat.isGzip(file.getName())) {
        raw = new GZIPOutputStream(raw, 1 << 16);
      }
      out = new BufferedOutputStream(raw, 1 << 16);
      StringBuilder header = new StringBuilder("# ");
      for (int i = 0; i < columns.size(); i++) {
        header.append(i == 0 ? "" : String.valueOf((char) separator)).append(columns.get(i).name());
      }
      out.write(header.append('\n').toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("creating " + file + ": " + e.getMessage(), e);
    }
  }

  private void separate(int column) throws IOException {
    if (column > 0) {
      out.write(separator);
    }
  }

  @Override
  public void setLong(int column, long value) {
    try {
      separate(column);
      writeLong(value);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void setInt(int column, int value) {
    setLong(column, value);
  }

  @Override
  public void setFloat(int column, float value) {
    try {
      separate(column);
      writeFloat(value);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void setString(int column, byte[] utf8) {
    try {
      separate(column);
      out.write(utf8);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void setFloats(int column, float[] values, int offset, int length) {
    try {
      separate(column);
      if (csv) {
        out.write('"');
      }
      for (int k = 0; k < length; k++) {
        if (k > 0) {
          out.write(',');
        }
        writeFloat(values[offset + k]);
      }
      if (csv) {
        out.write('"');
      }
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void endRow() {
    try {
      out.write('\n');
    } catch (IOException e) {
      throw failed(e);
    }
  }

  private void writeLong(long v) throws IOException {
    if (v == Long.MIN_VALUE) {
      out.write(Long.toString(v).getBytes(StandardCharsets.US_ASCII));
      return;
    }
    if (v < 0) {
      out.write('-');
      v = -v;
    }
    int i = digits.length;
    do {
      digits[--i] = (byte) ('0' + v % 10);
      v /= 10;
    } while (v != 0);
    out.write(digits, i, digits.length - i);
  }

  private void writeFloat(float v) throws IOException {
    if (v == (long) v && Math.abs(v) < 1e15f && Float.floatToRawIntBits(v) != 0x80000000) {
      writeLong((long) v);
    } else {
      out.write(Float.toString(v).getBytes(StandardCharsets.US_ASCII));
    }
  }

  private UncheckedIOException failed(IOException e) {
    return new UncheckedIOException("writing " + file + ": " + e.getMessage(), e);
  }

  @Override
  public void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing " + file + ": " + e.getMessage(), e);
    }
  }
}
