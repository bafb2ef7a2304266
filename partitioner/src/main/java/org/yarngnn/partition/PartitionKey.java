package org.yarngnn.partition;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;

/**
 * Map output key of the partition job: (owner partition, record kind, id), where the id is (table file, block
 * number within the file's map task), see {@link #block}: unique and independent of map timing. Sorting by all
 * three hands each reducer its node blocks first, then the reference blocks, then the edge blocks, each kind in
 * table order; the grouping comparator groups by partition only, so one reduce call sees the whole partition.
 */
public final class PartitionKey implements WritableComparable<PartitionKey> {
  public static final byte NODE = 0;
  public static final byte REF = 1;
  public static final byte EDGE = 2;
  /** Serialised size: int32 partition, int8 kind, int64 id. */
  static final int BYTES = 13;

  private int partition;
  private byte kind;
  private long id;

  public PartitionKey() {}

  public PartitionKey set(int partition, byte kind, long id) {
    this.partition = partition;
    this.kind = kind;
    this.id = id;
    return this;
  }

  /** The key of block {@code seq} of {@code kind} from table file {@code file}. */
  public PartitionKey block(int partition, byte kind, int file, int seq) {
    return set(partition, kind, ((long) file << 32) | (seq & 0xffffffffL));
  }

  public int partition() {
    return partition;
  }

  public byte kind() {
    return kind;
  }

  public long id() {
    return id;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeInt(partition);
    out.writeByte(kind);
    out.writeLong(id);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    partition = in.readInt();
    kind = in.readByte();
    id = in.readLong();
  }

  @Override
  public int compareTo(PartitionKey o) {
    int c = Integer.compare(partition, o.partition);
    c = c != 0 ? c : Byte.compare(kind, o.kind);
    return c != 0 ? c : Long.compare(id, o.id);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartitionKey && compareTo((PartitionKey) o) == 0;
  }

  @Override
  public int hashCode() {
    return partition * 31 + kind * 7 + Long.hashCode(id);
  }

  @Override
  public String toString() {
    return partition + "/" + kind + "/" + id;
  }

  /** Compares serialised keys without deserialising them (the shuffle sorts tens of millions). */
  public static final class SortComparator extends WritableComparator {
    public SortComparator() {
      super(PartitionKey.class);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      int c = Integer.compare(readInt(b1, s1), readInt(b2, s2));
      c = c != 0 ? c : Byte.compare(b1[s1 + 4], b2[s2 + 4]);
      return c != 0 ? c : Long.compare(readLong(b1, s1 + 5), readLong(b2, s2 + 5));
    }
  }

  /** Groups by partition only. */
  public static final class GroupComparator extends WritableComparator {
    public GroupComparator() {
      super(PartitionKey.class);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      return Integer.compare(readInt(b1, s1), readInt(b2, s2));
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(WritableComparable a, WritableComparable b) {
      return Integer.compare(((PartitionKey) a).partition, ((PartitionKey) b).partition);
    }
  }

  /** Sends each key to the reducer of its owner partition. */
  public static final class OwnerPartitioner extends org.apache.hadoop.mapreduce.Partitioner<PartitionKey, Object> {
    @Override
    public int getPartition(PartitionKey key, Object value, int numPartitions) {
      return key.partition % numPartitions;
    }
  }
}
