package org.yarngnn.io.table;

import java.util.Objects;

/**
 * How to read a table: its format (null = from each file's extension), the column names of Parquet/ORC tables
 * (the contract's names by default) and whether non-finite feature values are refused.
 */
public final class TableReadOptions {
  private static final TableReadOptions DEFAULTS = builder().build();

  private final TableFormat format;
  private final String srcColumn;
  private final String dstColumn;
  private final String weightColumn;
  private final String idColumn;
  private final String featuresColumn;
  private final String labelColumn;
  private final String splitColumn;
  private final boolean allowNonFinite;

  private TableReadOptions(Builder b) {
    this.format = b.format;
    this.srcColumn = b.srcColumn;
    this.dstColumn = b.dstColumn;
    this.weightColumn = b.weightColumn;
    this.idColumn = b.idColumn;
    this.featuresColumn = b.featuresColumn;
    this.labelColumn = b.labelColumn;
    this.splitColumn = b.splitColumn;
    this.allowNonFinite = b.allowNonFinite;
  }

  public static TableReadOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.format = format;
    b.srcColumn = srcColumn;
    b.dstColumn = dstColumn;
    b.weightColumn = weightColumn;
    b.idColumn = idColumn;
    b.featuresColumn = featuresColumn;
    b.labelColumn = labelColumn;
    b.splitColumn = splitColumn;
    b.allowNonFinite = allowNonFinite;
    return b;
  }

  /** The forced format, or null to take it from each file's extension. */
  public TableFormat format() {
    return format;
  }

  public String srcColumn() {
    return srcColumn;
  }

  public String dstColumn() {
    return dstColumn;
  }

  public String weightColumn() {
    return weightColumn;
  }

  public String idColumn() {
    return idColumn;
  }

  public String featuresColumn() {
    return featuresColumn;
  }

  public String labelColumn() {
    return labelColumn;
  }

  public String splitColumn() {
    return splitColumn;
  }

  /** True when NaN/Inf feature values are passed through instead of refused (for reading outputs back). */
  public boolean allowNonFinite() {
    return allowNonFinite;
  }

  /** Builder; every setting starts at the contract's default. */
  public static final class Builder {
    private TableFormat format;
    private String srcColumn = "src";
    private String dstColumn = "dst";
    private String weightColumn = "weight";
    private String idColumn = "id";
    private String featuresColumn = "features";
    private String labelColumn = "label";
    private String splitColumn = "split";
    private boolean allowNonFinite;

    private Builder() {
    }

    /** The format of every file, or null (default) to take it from each file's extension. */
    public Builder format(TableFormat format) {
      this.format = format;
      return this;
    }

    public Builder srcColumn(String name) {
      this.srcColumn = Objects.requireNonNull(name);
      return this;
    }

    public Builder dstColumn(String name) {
      this.dstColumn = Objects.requireNonNull(name);
      return this;
    }

    public Builder weightColumn(String name) {
      this.weightColumn = Objects.requireNonNull(name);
      return this;
    }

    public Builder idColumn(String name) {
      this.idColumn = Objects.requireNonNull(name);
      return this;
    }

    public Builder featuresColumn(String name) {
      this.featuresColumn = Objects.requireNonNull(name);
      return this;
    }

    public Builder labelColumn(String name) {
      this.labelColumn = Objects.requireNonNull(name);
      return this;
    }

    public Builder splitColumn(String name) {
      this.splitColumn = Objects.requireNonNull(name);
      return this;
    }

    public Builder allowNonFinite(boolean allow) {
      this.allowNonFinite = allow;
      return this;
    }

    public TableReadOptions build() {
      return new TableReadOptions(this);
    }
  }
}
