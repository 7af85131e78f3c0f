/**
 * Streaming writer for Athena-format files: TAB-separated, no quoting, LF line ends, a header row
 * of lowercase column names. Lines are gathered into ~4 MB chunks and written synchronously, so
 * memory stays flat however many rows a table has.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

const CHUNK = 4 * 1024 * 1024;

export class TsvWriter {
  private readonly fd: number;
  private buf = '';
  rows = 0;
  bytes = 0;

  constructor(readonly path: string, columns: readonly string[]) {
    this.fd = openSync(path, 'w');
    this.buf = `${columns.join('\t')}\n`;
  }

  /** Appends one complete line (fields already joined with TAB, ending with LF). */
  line(text: string): void {
    this.buf += text;
    this.rows++;
    if (this.buf.length >= CHUNK) this.flush();
  }

  flush(): void {
    if (this.buf.length) {
      this.bytes += writeSync(this.fd, this.buf);
      this.buf = '';
    }
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
