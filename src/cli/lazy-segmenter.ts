/**
 * The CLI bundle's `Intl.Segmenter` (tsup.config.ts swaps it in with `define`): the same
 * segmenter, made on its first use. yargs' text-width helpers each make one when their
 * module loads, and the first costs about 9 ms (ICU's break rules), yet the server
 * measures no text unless it prints `--help` or a usage error.
 */
// The real class, read through globalThis: the build's `define` replaces the expression
// `Intl.Segmenter` itself, everywhere else in the bundle.
const RealSegmenter = globalThis.Intl.Segmenter

export class LazySegmenter {
  readonly #args: ConstructorParameters<typeof RealSegmenter>
  #segmenter: Intl.Segmenter | undefined

  constructor(...args: ConstructorParameters<typeof RealSegmenter>) {
    this.#args = args
  }

  #real(): Intl.Segmenter {
    return (this.#segmenter ??= new RealSegmenter(...this.#args))
  }

  segment(input: string): Intl.Segments {
    return this.#real().segment(input)
  }

  resolvedOptions(): Intl.ResolvedSegmenterOptions {
    return this.#real().resolvedOptions()
  }

  static supportedLocalesOf(
    ...args: Parameters<typeof RealSegmenter.supportedLocalesOf>
  ): string[] {
    return RealSegmenter.supportedLocalesOf(...args)
  }
}
