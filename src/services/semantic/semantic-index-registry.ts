/**
 * The vectors a server searches per release and the provider that embeds its queries: a release's vectors open
 * lazily, only if the server's provider built them, and follow `omopterm embed` while serving.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { ReleaseBuild } from '../../store/data-dir.js';
import { publishedEmbeddingFiles, readCurrentEmbedding, type CurrentEmbedding, type EmbeddingFiles } from '../../store/semantic-dir.js';
import type { SemanticIndex } from '../../store/semantic-index.js';
import type { ReleaseView } from '../release-view.js';
import { LEXICON_PROVIDER_ID, type EmbeddingProvider, type EmbeddingProviderChoice } from '../../search-model/semantic/embedding-provider.js';
import { decodeLexicon } from '../../search-model/semantic/lexicon/lexicon-codec.js';
import { createLexiconProvider, LEXICON_DIMENSION } from '../../search-model/semantic/lexicon/lexicon-provider.js';
import type { IdfSource } from '../../search-model/semantic/lexicon/sparse-features.js';
import { loadLocalModelProvider, LOCAL_MODEL_PROVIDER_PREFIX } from '../../search-model/semantic/local-model-provider.js';

export type SemanticIndexLookup =
  | {
      ok: true;
      index: SemanticIndex;
      provider: EmbeddingProvider;
      /** Word weights of the release (the default provider's lexicon), for lexical scoring; null with a local model. */
      idf: IdfSource | null;
    }
  | { ok: false; status: 503; code: 'semantic_unavailable'; message: string };

/** Opens a published embedding set (src/store/sqlite/sqlite-semantic-index.ts for the server). */
export type SemanticIndexOpener = (files: EmbeddingFiles) => SemanticIndex;

export interface SemanticIndexRegistryOptions {
  /** The provider this server embeds queries with. */
  choice: EmbeddingProviderChoice;
  openIndex: SemanticIndexOpener;
  /** How often a release's current.json is re-read (default 2,000 ms; 0: on every request). */
  recheckIntervalMs?: number;
  /** How long a replaced index stays open for the requests still using it (default 30 s). */
  retireDelayMs?: number;
  onNotice?: (line: string) => void;
}

interface CachedRelease {
  checkedAt: number;
  /** The embedding set the lookup was made for (null: none published). */
  embeddingId: string | null;
  lookup: SemanticIndexLookup;
}

const DEFAULT_RECHECK_MS = 2000;
const DEFAULT_RETIRE_DELAY_MS = 30_000;

export class SemanticIndexRegistry {
  /** Keyed by build directory. */
  private readonly releases = new Map<string, CachedRelease>();
  private modelProvider: EmbeddingProvider | null = null;
  private readonly retireTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: SemanticIndexRegistryOptions) {}

  /** Loads the local model, if the server uses one (a bad model directory fails the server's start). */
  async prepare(): Promise<void> {
    if (this.options.choice.kind === 'local-model' && !this.modelProvider) {
      this.modelProvider = await loadLocalModelProvider(this.options.choice.modelDir);
    }
  }

  /** The vectors and query provider of a release (the request's view, or a registry's release), or why semantic search is unavailable on it. */
  async get(view: Pick<ReleaseView, 'label' | 'build'>): Promise<SemanticIndexLookup> {
    await this.prepare();
    if (!view.build) return this.unavailable(`release ${view.label} has no build directory, so no vectors for semantic search`);
    const release = { label: view.label, build: view.build };
    const key = release.build.dir;
    const cached = this.releases.get(key);
    const now = Date.now();
    if (cached && now - cached.checkedAt < (this.options.recheckIntervalMs ?? DEFAULT_RECHECK_MS)) return cached.lookup;
    const current = readCurrentEmbedding(release.build.dir);
    // A replaced build is removed before the release registry's next rescan retires it: its open
    // index keeps answering (its files stay readable while open) until retain() closes it.
    const buildRemoved = current === null && !existsSync(release.build.dir);
    if (cached && (buildRemoved || cached.embeddingId === (current?.embeddingId ?? null))) {
      cached.checkedAt = now;
      return cached.lookup;
    }
    const lookup = current ? this.open(release, current) : this.unavailable(`release ${release.label} has no vectors for semantic search: run ${this.embedCommand(release.label)}`);
    this.releases.set(key, { checkedAt: now, embeddingId: current?.embeddingId ?? null, lookup });
    if (cached) this.retire(cached);
    return lookup;
  }

  /** Closes the indexes of builds no longer served (called when the release registry changes). */
  retain(builds: readonly ReleaseBuild[]): void {
    const served = new Set(builds.map((b) => b.dir));
    for (const [dir, cached] of this.releases) {
      if (served.has(dir)) continue;
      this.releases.delete(dir);
      this.retire(cached);
    }
  }

  async close(): Promise<void> {
    for (const timer of this.retireTimers) clearTimeout(timer);
    this.retireTimers.clear();
    for (const cached of this.releases.values()) if (cached.lookup.ok) cached.lookup.index.close();
    this.releases.clear();
    await this.modelProvider?.close?.();
    this.modelProvider = null;
  }

  private open(release: { label: string; build: ReleaseBuild }, current: CurrentEmbedding): SemanticIndexLookup {
    const expected = this.expectedProvider();
    if (current.provider !== expected.id || current.dimension !== expected.dimension) {
      return this.unavailable(this.mismatchMessage(release.label, current, expected));
    }
    let index: SemanticIndex;
    try {
      index = this.options.openIndex(publishedEmbeddingFiles(release.build.dir, current.embeddingId));
    } catch (err) {
      // the cause names files of the server: the operator's log gets it, the client only what to run
      const message = `the vectors of release ${release.label} cannot be opened: run ${this.embedCommand(release.label)}`;
      this.options.onNotice?.(`${message} (${(err as Error).message})`);
      return this.unavailable(message);
    }
    if (this.modelProvider) return { ok: true, index, provider: this.modelProvider, idf: null };
    const state = index.providerState();
    try {
      if (!state) throw new Error('they carry no lexicon');
      const lexicon = decodeLexicon(state);
      return { ok: true, index, provider: createLexiconProvider(lexicon), idf: lexicon };
    } catch (err) {
      index.close();
      return this.unavailable(`the lexicon stored with the vectors of release ${release.label} is unusable (${(err as Error).message}): run ${this.embedCommand(release.label)}`);
    }
  }

  private expectedProvider(): { id: string; dimension: number } {
    return this.modelProvider ?? { id: LEXICON_PROVIDER_ID, dimension: LEXICON_DIMENSION };
  }

  private mismatchMessage(label: string, current: CurrentEmbedding, expected: { id: string; dimension: number }): string {
    const builtByModel = current.provider.startsWith(LOCAL_MODEL_PROVIDER_PREFIX);
    const modelName = builtByModel ? current.provider.slice(LOCAL_MODEL_PROVIDER_PREFIX.length).split('@')[0] : null;
    const serverAlternative = builtByModel
      ? `start the server with --embedding-model pointing at the model directory ${modelName} that built them`
      : current.provider === LEXICON_PROVIDER_ID
        ? 'start the server without --embedding-model'
        : 'start a server with the provider that built them';
    return (
      `vectors of release ${label} were built by ${current.provider} (dim ${current.dimension}); ` +
      `this server embeds queries with ${expected.id} (dim ${expected.dimension}): ` +
      `run ${this.embedCommand(label)} or ${serverAlternative}`
    );
  }

  /**
   * The command that embeds a release with this server's provider. Clients read it too, so a model
   * directory is named by its last part only, never by the server's path.
   */
  private embedCommand(label: string): string {
    const choice = this.options.choice;
    return `\`omopterm embed --release ${label}${choice.kind === 'local-model' ? ` --embedding-model …/${basename(choice.modelDir)}` : ''}\``;
  }

  private unavailable(message: string): SemanticIndexLookup {
    return { ok: false, status: 503, code: 'semantic_unavailable', message };
  }

  /** Closes a replaced index a little later: requests already running on it finish first. */
  private retire(cached: CachedRelease): void {
    if (!cached.lookup.ok) return;
    const index = cached.lookup.index;
    const timer = setTimeout(() => {
      this.retireTimers.delete(timer);
      index.close();
    }, this.options.retireDelayMs ?? DEFAULT_RETIRE_DELAY_MS);
    timer.unref();
    this.retireTimers.add(timer);
  }
}
