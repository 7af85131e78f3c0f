/**
 * Source names written in British or international spelling, or with a drug's international name, rewritten the way
 * most standard concept names are written (SNOMED's US names, RxNorm's US adopted names): "anaemia" → "anemia",
 * "oedema" → "edema", "sulphate" → "sulfate", "tumour" → "tumor", "cefalexin" → "cephalexin", "paracetamol" →
 * "acetaminophen". The candidate step searches the variant as well as the text itself, so a rule that also fires on a
 * word that needed no change (the genus "Haemophilus") only adds candidates, never removes one.
 */

/** One correspondence: a pattern over a lower-case word and its American replacement. */
interface SpellingRule {
  pattern: RegExp;
  replacement: string;
}

const RULES: readonly SpellingRule[] = [
  // ae / oe digraphs inside a word: anaemia, haemorrhage, paediatric, leukaemia; diarrhoea, foetal, coeliac
  // (not a plural's "-oes": toes, shoes)
  { pattern: /([a-z])ae(?=[a-z])/g, replacement: '$1e' },
  { pattern: /([a-z])oe(?=[a-rt-z]|s[a-z])/g, replacement: '$1e' },
  // at the start: aetiology, aesthetic; oedema, oesophagus, oestrogen
  { pattern: /^ae(?=[st])/, replacement: 'e' },
  { pattern: /^oe(?=[a-z])/, replacement: 'e' },
  // sulph- → sulf- (sulphate, sulphonamide); aluminium → aluminum
  { pattern: /sulph/g, replacement: 'sulf' },
  { pattern: /^aluminium$/, replacement: 'aluminum' },
  // the first cephalosporins: INN cef- → US ceph- (cefalexin, cefalotin, cefradine, cefapirin)
  { pattern: /^cef(?=al|ra|ap)/, replacement: 'ceph' },
  // -our → -or after a consonant (tumour, colour, vapour, labour; not four, hour, your, flour), and behaviour, odour
  { pattern: /([a-z]{2}[^aeiouhfy])our(s?|ed|al)$/, replacement: '$1or$2' },
  { pattern: /(avi|od)our(s?)$/, replacement: '$1or$2' },
  // -tre → -ter (centre, litre, fibre, metre)
  { pattern: /([a-z]{2}[bt])re(s?)$/, replacement: '$1er$2' },
  // -isation → -ization; -alise/-onise/-arise/-erise and their forms → -ize (localised, hospitalise, ionised)
  { pattern: /isation(s?)$/, replacement: 'ization$1' },
  { pattern: /([a-z]{2}(?:al|on|ar|er))is(e|ed|es|ing)$/, replacement: '$1iz$2' },
  // -yse → -yze (analyse, paralysed, dialyse); -ogue → -og (analogue, catalogue)
  { pattern: /([a-z]{2})ys(e|ed|es|ing)$/, replacement: '$1yz$2' },
  { pattern: /([a-z]{3})ogue(s?)$/, replacement: '$1og$2' },
];

/**
 * Drugs whose international (INN/BAN) name differs from the US adopted name RxNorm uses, beyond a spelling rule:
 * the best-known pairs (WHO INN and USAN lists).
 */
const DRUG_NAMES: ReadonlyMap<string, string> = new Map([
  ['paracetamol', 'acetaminophen'],
  ['salbutamol', 'albuterol'],
  ['levosalbutamol', 'levalbuterol'],
  ['adrenaline', 'epinephrine'],
  ['noradrenaline', 'norepinephrine'],
  ['glibenclamide', 'glyburide'],
  ['lignocaine', 'lidocaine'],
  ['frusemide', 'furosemide'],
  ['ciclosporin', 'cyclosporine'],
  ['rifampicin', 'rifampin'],
  ['pethidine', 'meperidine'],
  ['orciprenaline', 'metaproterenol'],
  ['isoprenaline', 'isoproterenol'],
  ['thyroxine', 'levothyroxine'],
  ['amoxycillin', 'amoxicillin'],
  ['benzylpenicillin', 'penicillin g'],
  ['phenoxymethylpenicillin', 'penicillin v'],
  ['norethisterone', 'norethindrone'],
  ['ethinylestradiol', 'ethinyl estradiol'],
  ['colecalciferol', 'cholecalciferol'],
  ['dicycloverine', 'dicyclomine'],
  ['hyoscine', 'scopolamine'],
  ['chlorphenamine', 'chlorpheniramine'],
  ['dosulepin', 'dothiepin'],
  ['aciclovir', 'acyclovir'],
  ['valaciclovir', 'valacyclovir'],
  ['clomifene', 'clomiphene'],
  ['methylthioninium', 'methylene blue'],
  ['mesalazine', 'mesalamine'],
  ['cromoglicate', 'cromolyn'],
  ['torasemide', 'torsemide'],
  ['tetracosactide', 'cosyntropin'],
  ['nitroglycerine', 'nitroglycerin'],
]);

/** A lower-case word written the American way (the word itself when no rule or name applies). */
export function americanSpelling(word: string): string {
  const named = DRUG_NAMES.get(word);
  if (named) return named;
  let out = word;
  for (const rule of RULES) out = out.replace(rule.pattern, rule.replacement);
  return out;
}

/**
 * The text's words with every word that has another American spelling rewritten, joined by spaces, or null when no
 * word changes. `words` are the text's tokens (tokenize(), lower case).
 */
export function americanSpellingVariant(words: readonly string[]): string | null {
  let changed = false;
  const out = words.map((w) => {
    const a = americanSpelling(w);
    if (a !== w) changed = true;
    return a;
  });
  const text = out.join(' ');
  // "glyceryl trinitrate" is one name in two words
  const joined = text.replace(/\bglyceryl trinitrate\b/g, 'nitroglycerin');
  return changed || joined !== text ? joined : null;
}
