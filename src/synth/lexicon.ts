/**
 * Medical word lists the name builders draw from, each ordered by how common the item is in real vocabulary names;
 * builders sample them with a Zipf law over rank, so a head word ("disorder", "tablet") is in a large share of its
 * family's names and a tail word in a handful.
 */

const list = (s: string): readonly string[] => s.split('|').map((w) => w.trim()).filter(Boolean);

export const BODY_SITES = list(`skin|lung|heart|liver|kidney|brain|eye|bone|joint|knee|hip|shoulder|spine|abdomen|chest|
breast|colon|stomach|urinary bladder|prostate|uterus|ovary|thyroid gland|pancreas|esophagus|small intestine|rectum|anus|ear|
nose|mouth|tongue|tooth|lip|face|head|neck|back|foot|hand|finger|toe|wrist|ankle|elbow|forearm|upper arm|thigh|lower leg|
femur|tibia|fibula|humerus|radius|ulna|pelvis|sacrum|coccyx|scapula|clavicle|rib|sternum|skull|mandible|maxilla|vertebra|
cervical spine|thoracic spine|lumbar spine|intervertebral disc|spinal cord|peripheral nerve|artery|vein|aorta|coronary artery|
carotid artery|pulmonary artery|femoral artery|lymph node|spleen|gallbladder|bile duct|appendix|duodenum|jejunum|ileum|
cecum|sigmoid colon|transverse colon|ascending colon|descending colon|peritoneum|diaphragm|pleura|bronchus|trachea|larynx|
pharynx|tonsil|paranasal sinus|nasal cavity|retina|cornea|lens|conjunctiva|eyelid|orbit|middle ear|inner ear|
tympanic membrane|adrenal gland|pituitary gland|parathyroid gland|testis|epididymis|penis|scrotum|vagina|vulva|cervix uteri|
fallopian tube|placenta|umbilical cord|skeletal muscle|tendon|ligament|cartilage|synovial membrane|bursa|fascia|
subcutaneous tissue|nail|hair follicle|sweat gland|sebaceous gland|mitral valve|aortic valve|tricuspid valve|pulmonary valve|
left ventricle|right ventricle|left atrium|right atrium|pericardium|myocardium|endocardium|cerebrum|cerebellum|brainstem|
meninges|frontal lobe|temporal lobe|parietal lobe|occipital lobe|hippocampus|thalamus|hypothalamus|basal ganglia|
cerebral ventricle|optic nerve|facial nerve|sciatic nerve|median nerve|ulnar nerve|radial nerve|brachial plexus|
lumbosacral plexus|renal pelvis|ureter|urethra|glomerulus|renal tubule|hepatic duct|portal vein|hepatic artery|splenic vein|
mesentery|omentum|retroperitoneum|mediastinum|thymus|bone marrow|blood|lymphatic vessel|salivary gland|parotid gland|
submandibular gland|gingiva|palate|hard palate|soft palate|uvula|epiglottis|vocal cord|pulmonary alveolus|lobe of lung|
upper lobe of lung|lower lobe of lung|middle lobe of right lung|heel|sole of foot|dorsum of foot|palm|thumb|index finger|
great toe|patella|meniscus|anterior cruciate ligament|rotator cuff|Achilles tendon|acetabulum|femoral head|neck of femur|
shaft of femur|shaft of tibia|distal radius|olecranon|calcaneus|talus|metatarsal bone|metacarpal bone|phalanx|carpal bone|
tarsal bone|temporomandibular joint|sacroiliac joint|acromioclavicular joint|iliac crest|groin|buttock|perineum|scalp|
forehead|cheek|chin|eyebrow|axilla|flank|umbilicus|lower limb|upper limb|trunk|oral mucosa|nasopharynx|oropharynx|
hypopharynx|esophagogastric junction|pylorus|ampulla of Vater|hepatic flexure|splenic flexure|anal canal|ovarian follicle|
endometrium|myometrium|seminal vesicle|vas deferens|ciliary body|iris|choroid|sclera|vitreous body|optic disc|macula|
lacrimal gland|nasal septum|turbinate|mastoid process|cochlea|vestibule of ear|auditory canal|cervical lymph node|
axillary lymph node|inguinal lymph node|mesenteric lymph node|subclavian artery|iliac artery|popliteal artery|renal artery|
mesenteric artery|vertebral artery|jugular vein|saphenous vein|inferior vena cava|superior vena cava`);

export const CONDITION_HEADS = list(`disorder|disease|infection|neoplasm|injury|fracture|inflammation|pain|lesion|ulcer|
syndrome|abnormality|malignant neoplasm|benign neoplasm|carcinoma|hemorrhage|obstruction|stenosis|cyst|abscess|dislocation|
sprain|contusion|laceration|open wound|burn|deformity|degeneration|hypertrophy|atrophy|dysfunction|insufficiency|failure|
edema|effusion|thrombosis|embolism|aneurysm|ischemia|infarction|necrosis|fibrosis|calcification|perforation|rupture|
prolapse|hernia|fistula|stricture|polyp|adenoma|lymphoma|sarcoma|melanoma|dermatitis|arthritis|arthropathy|myopathy|
neuropathy|encephalopathy|nephropathy|retinopathy|cardiomyopathy|hepatitis|nephritis|pneumonia|bronchitis|sinusitis|otitis|
conjunctivitis|cellulitis|osteomyelitis|tendinitis|bursitis|gastritis|colitis|enteritis|esophagitis|pancreatitis|
cholecystitis|cystitis|urethritis|vaginitis|prostatitis|myocarditis|pericarditis|endocarditis|vasculitis|meningitis|
encephalitis|anemia|hypoplasia|aplasia|dysplasia|agenesis|malformation|anomaly|spasm|paralysis|palsy|seizure|tremor|
contracture|ankylosis|instability|subluxation|foreign body|complication|mass|nodule|hyperplasia|metaplasia|erosion|scar|
keloid|pruritus|rash|discharge|bleeding|disturbance|deficiency|intoxication|poisoning|dependence|abuse|crush injury|
avulsion|amputation|stricture|diverticulum|varices|angioma|hemangioma|lipoma|fibroma|papilloma|teratoma|glioma|
mesothelioma|leukemia|myeloma|carcinoma in situ|adenocarcinoma|squamous cell carcinoma|basal cell carcinoma`);

export const QUALIFIERS = list(`acute|chronic|left|right|bilateral|primary|secondary|recurrent|congenital|malignant|benign|
traumatic|severe|mild|moderate|closed|open|partial|complete|idiopathic|acquired|hereditary|familial|infective|inflammatory|
degenerative|obstructive|non-obstructive|allergic|atypical|diffuse|focal|localized|generalized|multiple|single|superficial|
deep|upper|lower|anterior|posterior|medial|lateral|proximal|distal|early onset|late onset|juvenile|adult onset|neonatal|
postoperative|post-traumatic|drug-induced|alcohol-induced|radiation-induced|iatrogenic|persistent|intermittent|transient|
progressive|stable|unstable|complicated|uncomplicated|displaced|nondisplaced|comminuted|pathological|stress|simple|mixed|
central|peripheral|unilateral|external|internal|subacute|fulminant|latent|active|inactive|quiescent|refractory|
nonrheumatic|rheumatic|hypertensive|diabetic|ischemic|hemorrhagic|necrotizing|suppurative|granulomatous|erosive|bullous|
papular|nodular|cystic|fibrotic|sclerosing|calcific|senile|presenile|infantile|gestational|puerperal|occupational|seasonal`);

export const CAUSES = list(`Streptococcus|Staphylococcus aureus|Escherichia coli|Pseudomonas aeruginosa|Klebsiella pneumoniae|
Haemophilus influenzae|Mycobacterium tuberculosis|Candida albicans|herpes simplex virus|varicella-zoster virus|
human papillomavirus|hepatitis B virus|hepatitis C virus|human immunodeficiency virus|influenza virus|
respiratory syncytial virus|SARS-CoV-2|Clostridioides difficile|Helicobacter pylori|Chlamydia trachomatis|
Neisseria gonorrhoeae|Treponema pallidum|Salmonella|Shigella|Campylobacter|Listeria monocytogenes|Legionella|Aspergillus|
Plasmodium falciparum|Toxoplasma gondii|type 1 diabetes mellitus|type 2 diabetes mellitus|hypertension|alcohol|tobacco use|
drug|trauma|fall|motor vehicle accident|pregnancy|obesity|malnutrition|radiation|chemotherapy|surgical procedure|
autoimmune disease|infection|vitamin D deficiency|iron deficiency|renal failure|heart failure|atherosclerosis|
rheumatoid arthritis|systemic lupus erythematosus|sickle cell disease|cystic fibrosis|HIV infection|malignant neoplasm|
sepsis|burn|frostbite|electric current|animal bite|insect bite|foreign body|Enterococcus|Enterobacter|Serratia|
Acinetobacter|Bacteroides|Mycoplasma pneumoniae|Bordetella pertussis|Borrelia burgdorferi|Rickettsia|Cryptococcus|
Histoplasma|Pneumocystis jirovecii|Giardia lamblia|Entamoeba histolytica|Schistosoma|Trichomonas vaginalis|norovirus|
rotavirus|adenovirus|enterovirus|cytomegalovirus|Epstein-Barr virus|measles virus|mumps virus|rubella virus|Zika virus|
dengue virus|West Nile virus|rabies virus`);

export const COMPLICATIONS = list(`with complication|with hemorrhage|with perforation|with obstruction|with gangrene|with coma|
with ketoacidosis|with hyperosmolarity|with chronic kidney disease|with retinopathy|with neuropathy|
with peripheral angiopathy|with heart failure|with acute exacerbation|with lower respiratory infection|with delirium|
with behavioral disturbance|with psychotic features|with loss of consciousness|without loss of consciousness|
without complication|with effusion|with abscess|with fistula|with sepsis|with infection|with metastasis|
with hypoglycemia|with hyperglycemia|with pain|with bleeding|with stenosis|with calcification|with thrombosis|
with ulceration|with edema|with nephrotic syndrome|with proteinuria|with hypertension|with anemia|with dehydration`);

export const STAGES = list(`stage 1|stage 2|stage 3|stage 3a|stage 3b|stage 4|stage 5|grade 1|grade 2|grade 3|type 1|
type 2|type I|type II|type III|class I|class II|class III|class IV|NOS|in remission|in relapse|not in remission|
initial encounter|subsequent encounter|sequela|first trimester|second trimester|third trimester|in childbirth|postpartum|
antepartum|of newborn|in pregnancy|in mother complicating pregnancy|due to underlying condition|unspecified|
end stage|early stage|late stage|high grade|low grade`);

export const CONDITION_ROOT_BRANCHES = list(`Disorder of cardiovascular system|Disorder of respiratory system|
Disorder of digestive system|Disorder of nervous system|Disorder of musculoskeletal system|
Disorder of skin and/or subcutaneous tissue|Disorder of genitourinary system|Disorder of endocrine system|
Metabolic disease|Disorder of immune function|Disorder of hematopoietic structure|Mental disorder|Infectious disease|
Neoplastic disease|Traumatic injury|Congenital disease|Disorder of pregnancy|Disorder of eye proper|Disorder of ear|
Poisoning|Nutritional disorder|Finding of vital signs|Finding related to pregnancy|Finding of body region|
Functional finding|Sleep disorder|Disorder of connective tissue|Hereditary disease|Inflammatory disorder|
Degenerative disorder|Complication of procedure|Adverse reaction|Allergic condition|Pain finding|Clinical history finding|
Finding by site|Disorder by body site|Vascular disorder|Dental disorder|Developmental disorder|Disorder of lymphatic system|
Disorder of breast|Disorder of oral cavity|Disorder of liver|Disorder of kidney|Disorder of joint|Disorder of bone|
Disorder of muscle|Disorder of peripheral nerve|Disorder of brain|Disorder of spinal cord|Disorder of heart|
Disorder of lung|Disorder of stomach|Disorder of intestine|Disorder of urinary bladder|Disorder of prostate|
Disorder of uterus|Disorder of ovary|Disorder of thyroid gland|Disorder of adrenal gland|Disorder of pituitary gland`);

export const PROCEDURE_HEADS = list(`excision|biopsy|repair|removal|insertion|replacement|reconstruction|incision|drainage|
aspiration|injection|infusion|implantation|resection|amputation|fixation|fusion|transplantation|dilation|ligation|
anastomosis|bypass|catheterization|endoscopy|arthroscopy|laparoscopy|colonoscopy|bronchoscopy|cystoscopy|
ultrasonography|radiography|computed tomography|magnetic resonance imaging|angiography|scintigraphy|fluoroscopy|
examination|assessment|evaluation|screening|monitoring|measurement|education|counseling|therapy|physiotherapy|
rehabilitation|radiotherapy|chemotherapy|immunization|vaccination|debridement|suture|closure|irrigation|manipulation|
reduction|release|decompression|stabilization|revision|exploration|destruction|ablation|excision of lesion|
partial excision|total excision|embolization|stent placement|cannulation|intubation|extubation|hemodialysis|transfusion|
consultation|referral|administration|prescription|medication review|management|care planning|nursing care|
lavage|curettage|cauterization|cryotherapy|laser therapy|photocoagulation|grafting|flap reconstruction|osteotomy|
arthroplasty|arthrodesis|laminectomy|discectomy|craniotomy|thoracotomy|laparotomy|mastectomy|hysterectomy|
cholecystectomy|appendectomy|colectomy|gastrectomy|nephrectomy|prostatectomy|thyroidectomy|tonsillectomy|splenectomy`);

export const PROCEDURE_QUALIFIERS = list(`laparoscopic|open|endoscopic|percutaneous|partial|total|bilateral|left|right|primary|
revision|diagnostic|therapeutic|emergency|elective|robot-assisted|minimally invasive|transurethral|transvaginal|
transabdominal|intravenous|intramuscular|subcutaneous|intra-articular|fluoroscopically guided|ultrasound-guided|
computed tomography guided|radical|modified radical|simple|extended|staged|contrast-enhanced|routine|complex|
follow-up|initial|subsequent|pediatric|adult|prophylactic|palliative|curative|exploratory|repeat|secondary|
microsurgical|arthroscopic|thoracoscopic|stereotactic|image-guided|intraoperative|postoperative|preoperative`);

export const PROCEDURE_DEVICES = list(`using laser|using stent|using plate|using screw|using catheter|using balloon|
using prosthesis|using graft|using mesh|using microscope|using endoscope|using robot|using radiofrequency|
using cryoprobe|using ultrasound|using wire|using intramedullary nail|using external fixator|using suture|
using staples|using drain|using shunt|using pacemaker|using implant|using clip|using coil|using filter`);

export const DEVICE_NOUNS = list(`catheter|glove|syringe|needle|dressing|bandage|stent|implant|prosthesis|pump|sensor|monitor|
tube|drain|mask|cannula|electrode|lead|valve|graft|mesh|plate|screw|nail|wire|clip|staple|suture|splint|brace|
wheelchair|walker|crutch|hearing aid|lens|pacemaker|defibrillator|nebulizer|inhaler spacer|glucose meter|test strip|
lancet|pen needle|ostomy bag|incontinence pad|compression stocking|orthosis|insole|collar|sling|scalpel|forceps|
retractor|trocar|endoscope|laryngoscope|ventilator|oxygen concentrator|infusion set|filter|port|shunt|coil|balloon`);

export const DEVICE_MATERIALS = list(`sterile|non-sterile|disposable|reusable|latex-free|silicone|polyurethane|nitrile|
stainless steel|titanium|polyethylene|hydrocolloid|foam|alginate|hydrogel|silver|antimicrobial|absorbable|
non-absorbable|cobalt-chromium|ceramic|polypropylene|PTFE|biodegradable|adhesive|non-adhesive|single-use`);

export const SIZES = list(`small|medium|large|extra large|pediatric|adult|neonatal|5 cm|10 cm|15 cm|20 cm|7.5 cm x 7.5 cm|
10 cm x 10 cm|10 cm x 20 cm|14 French|16 French|18 French|20 French|22 gauge|25 gauge|30 mm|40 mm|size 7|size 8|
2 mL|5 mL|10 mL|20 mL|50 mL|1 m|2 m|3 m`);

export const OBSERVABLE_NOUNS = list(`level|count|measurement|score|pressure|rate|volume|concentration|temperature|weight|
height|length|circumference|index|ratio|saturation|time|duration|frequency|velocity|flow|capacity|output|intake|
clearance|activity|tone|reflex|sensation|function|status|ability|finding|observation|range of motion|strength|balance`);

export const HISTORY_PREFIXES = list(`History of|Family history of|Suspected|At risk of|No history of|Fear of|
Referral for|Education about|Screening for|Follow-up for|Observation of|Monitoring of|Not at risk for|
Personal history of|Past history of|Disorder excluded|Seen in clinic for|Under care of|Assessment of`);

export const ORGANISM_GENERA = list(`Streptococcus|Staphylococcus|Escherichia|Pseudomonas|Klebsiella|Haemophilus|
Mycobacterium|Candida|Clostridium|Enterococcus|Enterobacter|Salmonella|Shigella|Campylobacter|Listeria|Legionella|
Aspergillus|Plasmodium|Toxoplasma|Bacillus|Bacteroides|Corynebacterium|Neisseria|Moraxella|Acinetobacter|Serratia|
Proteus|Citrobacter|Yersinia|Vibrio|Helicobacter|Chlamydia|Mycoplasma|Treponema|Borrelia|Leptospira|Rickettsia|
Bartonella|Brucella|Francisella|Burkholderia|Stenotrophomonas|Actinomyces|Nocardia|Prevotella|Fusobacterium|
Peptostreptococcus|Veillonella|Lactobacillus|Bifidobacterium|Micrococcus|Cryptococcus|Histoplasma|Coccidioides|
Blastomyces|Pneumocystis|Trichophyton|Microsporum|Epidermophyton|Malassezia|Fusarium|Mucor|Rhizopus|Giardia|
Entamoeba|Cryptosporidium|Trypanosoma|Leishmania|Schistosoma|Taenia|Echinococcus|Ascaris|Enterobius|Strongyloides|
Trichinella|Wuchereria|Onchocerca|Sarcoptes|Pediculus|Ixodes|Aedes|Anopheles|Culex|Morganella|Providencia|Pasteurella|
Eikenella|Kingella|Gardnerella|Mobiluncus|Ureaplasma|Coxiella|Ehrlichia|Anaplasma|Tropheryma|Cutibacterium|Rothia|
Gemella|Abiotrophia|Granulicatella|Aerococcus|Leuconostoc|Pediococcus|Weissella|Finegoldia|Parvimonas|Anaerococcus`);

export const ORGANISM_EPITHETS = list(`aureus|epidermidis|pneumoniae|pyogenes|agalactiae|coli|aeruginosa|influenzae|
tuberculosis|albicans|difficile|faecalis|faecium|cloacae|enterica|sonnei|jejuni|monocytogenes|pneumophila|fumigatus|
falciparum|gondii|cereus|fragilis|diphtheriae|meningitidis|gonorrhoeae|catarrhalis|baumannii|marcescens|mirabilis|
freundii|enterocolitica|cholerae|pylori|trachomatis|pallidum|burgdorferi|interrogans|rickettsii|henselae|melitensis|
tularensis|cepacia|maltophilia|israelii|asteroides|melaninogenica|nucleatum|acidophilus|luteus|neoformans|capsulatum|
immitis|dermatitidis|jirovecii|rubrum|canis|floccosum|furfur|solani|lamblia|histolytica|parvum|cruzi|donovani|mansoni|
solium|granulosus|lumbricoides|vermicularis|stercoralis|spiralis|bancrofti|volvulus|scabiei|humanus|scapularis|aegypti|
gambiae|pipiens|morganii|stuartii|multocida|corrodens|kingae|vaginalis|urealyticum|burnetii|chaffeensis|
phagocytophilum|whipplei|acnes|mucilaginosa|haemolysans|adiacens|elegans|viridans|mitis|oralis|sanguinis|salivarius|
anginosus|intermedius|constellatus|mutans|sobrinus|gallolyticus|bovis|dysgalactiae|equi|suis|uberis|lugdunensis|
saprophyticus|haemolyticus|hominis|capitis|warneri|simulans|schleiferi|pseudintermedius|xylosus|sciuri`);

export const SUBSTANCE_SUFFIXES = list(`hydrochloride|sodium|potassium|calcium|sulfate|phosphate|acetate|citrate|maleate|
tartrate|besylate|mesylate|succinate|fumarate|bromide|chloride|magnesium|hydrobromide|dihydrate|monohydrate|nitrate|
lactate|gluconate|propionate|valerate|dipropionate|furoate|palmitate|stearate|benzoate`);

export const SUBSTANCE_CLASSES = list(`antibody|antigen|protein|enzyme|hormone|receptor|toxin|allergen|metabolite|
compound|acid|alcohol|ester|salt|oxide|peptide|lipid|carbohydrate|vitamin|mineral|glycoprotein|immunoglobulin|
polysaccharide|nucleotide|steroid|alkaloid|glycoside|amine|amide|ketone`);

/** Well-known ingredient names; generated names (see words.ts) continue the list. */
export const COMMON_INGREDIENTS = list(`sodium chloride|acetaminophen|ibuprofen|metformin|amlodipine|lisinopril|
atorvastatin|simvastatin|omeprazole|levothyroxine|metoprolol|losartan|hydrochlorothiazide|gabapentin|sertraline|
amoxicillin|azithromycin|prednisone|furosemide|insulin glargine|aspirin|warfarin|clopidogrel|pantoprazole|tramadol|
citalopram|escitalopram|fluoxetine|trazodone|alprazolam|lorazepam|clonazepam|zolpidem|montelukast|albuterol|
fluticasone|cetirizine|loratadine|ranitidine|famotidine|ciprofloxacin|levofloxacin|doxycycline|cephalexin|
sulfamethoxazole|trimethoprim|nitrofurantoin|metronidazole|clindamycin|vancomycin|ceftriaxone|gentamicin|heparin|
enoxaparin|rivaroxaban|apixaban|dabigatran|digoxin|carvedilol|propranolol|atenolol|diltiazem|verapamil|nifedipine|
valsartan|irbesartan|candesartan|spironolactone|torsemide|bumetanide|potassium chloride|magnesium sulfate|
calcium carbonate|cholecalciferol|ascorbic acid|folic acid|cyanocobalamin|ferrous sulfate|zinc sulfate|
dexamethasone|methylprednisolone|hydrocortisone|budesonide|tacrolimus|cyclosporine|mycophenolate|methotrexate|
hydroxychloroquine|allopurinol|colchicine|naproxen|diclofenac|celecoxib|meloxicam|morphine|oxycodone|hydrocodone|
fentanyl|hydromorphone|methadone|buprenorphine|naloxone|ondansetron|metoclopramide|promethazine|lidocaine|
bupivacaine|propofol|midazolam|ketamine|rocuronium|succinylcholine|epinephrine|norepinephrine|dopamine|dobutamine|
vasopressin|phenylephrine|atropine|glycopyrrolate|neostigmine|sugammadex|insulin lispro|insulin aspart|
insulin human|glipizide|glyburide|glimepiride|pioglitazone|sitagliptin|linagliptin|empagliflozin|dapagliflozin|
canagliflozin|liraglutide|semaglutide|dulaglutide|exenatide|rosuvastatin|pravastatin|ezetimibe|fenofibrate|
gemfibrozil|niacin|quetiapine|olanzapine|risperidone|aripiprazole|haloperidol|lithium carbonate|valproate|
lamotrigine|levetiracetam|carbamazepine|phenytoin|topiramate|pregabalin|duloxetine|venlafaxine|bupropion|
mirtazapine|amitriptyline|nortriptyline|donepezil|memantine|levodopa|carbidopa|pramipexole|ropinirole|sumatriptan|
tamsulosin|finasteride|oxybutynin|sildenafil|tadalafil|estradiol|progesterone|medroxyprogesterone|norethindrone|
ethinyl estradiol|levonorgestrel|testosterone|alendronate|tamoxifen|anastrozole|letrozole|leuprolide|cisplatin|
carboplatin|paclitaxel|docetaxel|doxorubicin|cyclophosphamide|fluorouracil|gemcitabine|oxaliplatin|rituximab|
trastuzumab|bevacizumab|pembrolizumab|nivolumab|adalimumab|infliximab|etanercept|ustekinumab|secukinumab|
dupilumab|omalizumab|denosumab|filgrastim|epoetin alfa|interferon beta-1a|glatiramer|acyclovir|valacyclovir|
oseltamivir|tenofovir|emtricitabine|efavirenz|dolutegravir|ritonavir|sofosbuvir|fluconazole|nystatin|terbinafine|
mupirocin|bacitracin|neomycin|polymyxin B|hydroxyzine|diphenhydramine|benzonatate|guaifenesin|dextromethorphan|
pseudoephedrine|phenylephrine hydrochloride|oxymetazoline|ipratropium|tiotropium|salmeterol|formoterol|
beclomethasone|mometasone|triamcinolone|clobetasol|betamethasone|ketoconazole|clotrimazole|miconazole|
benzoyl peroxide|tretinoin|adapalene|isotretinoin|minoxidil|latanoprost|timolol|brimonidine|dorzolamide|
cyclopentolate|tropicamide|prednisolone|moxifloxacin|tobramycin|erythromycin|clarithromycin|penicillin G|
ampicillin|piperacillin|tazobactam|meropenem|imipenem|cefazolin|cefepime|ceftazidime|linezolid|daptomycin|
rifampin|isoniazid|pyrazinamide|ethambutol|ivermectin|albendazole|mebendazole|praziquantel|chloroquine|
mefloquine|artemether|lumefantrine|quinine|thiamine|pyridoxine|riboflavin|vitamin A|vitamin E|phytonadione|
sodium bicarbonate|dextrose|glucose|water|oxygen|nitrous oxide|sevoflurane|isoflurane|desflurane|caffeine|
nicotine|menthol|camphor|zinc oxide|petrolatum|glycerin|lanolin|dimethicone|titanium dioxide|avobenzone|
octinoxate|oxybenzone|homosalate|octocrylene|salicylic acid|urea|ammonium lactate|hyaluronic acid|collagen|
aloe vera|chamomile|echinacea|ginkgo biloba|ginseng|valerian|melatonin|glucosamine|chondroitin|fish oil|
coenzyme Q10|biotin|iron|calcium|magnesium oxide|selenium|chromium|iodine|fluoride|copper|manganese|molybdenum`);

export const DOSE_FORMS = list(`Oral Tablet|Oral Capsule|Injectable Solution|Oral Solution|Extended Release Oral Tablet|
Topical Cream|Injection|Delayed Release Oral Tablet|Oral Suspension|Topical Ointment|Injectable Suspension|
Prefilled Syringe|Chewable Tablet|Extended Release Oral Capsule|Ophthalmic Solution|Topical Solution|
Inhalant Solution|Nasal Spray|Transdermal System|Topical Gel|Oral Powder|Rectal Suppository|
Delayed Release Oral Capsule|Metered Dose Inhaler|Dry Powder Inhaler|Oral Granules|Sublingual Tablet|
Effervescent Oral Tablet|Disintegrating Oral Tablet|Topical Lotion|Vaginal Cream|Otic Solution|Ophthalmic Ointment|
Ophthalmic Suspension|Mucosal Spray|Oral Spray|Buccal Film|Medicated Patch|Medicated Shampoo|Medicated Pad|
Cutaneous Spray|Irrigation Solution|Auto-Injector|Cartridge|Pen Injector|Enema|Rectal Cream|Rectal Foam|
Vaginal Tablet|Vaginal Gel|Vaginal System|Intrauterine System|Drug Implant|Nasal Gel|Inhalation Powder|
Inhalation Spray|Oral Lozenge|Chewing Gum|Oral Paste|Oral Gel|Mouthwash|Toothpaste|Topical Foam|Topical Spray|
Topical Powder|Medicated Bar Soap|Paste|Douche|Powder for Oral Suspension|Powder for Injectable Solution|
Injectable Foam|Pellet|Oral Wafer|Oral Film|Jet Injector|Nebulizer Solution|Oral Drops|Otic Suspension|
Ophthalmic Gel|Sustained Release Buccal Tablet|Extended Release Suspension|Extended Release Injectable Suspension|
Gas for Inhalation|Oral Liquid|Oil|Intravenous Solution|Intramuscular Solution|Subcutaneous Solution|
Intrathecal Suspension|Urethral Suppository|Vaginal Suppository|Cutaneous Foam|Cutaneous Emulsion|Nasal Powder|
Nasal Drops|Oral Cream|Dental Gel|Periodontal System|Bladder Instillation|Epidural Solution|Implantable Pellet|
Intradermal Solution|Intralesional Suspension|Oral Emulsion|Oral Tincture|Elixir|Syrup|Oral Cachet`);

export const STRENGTH_UNITS = list(`MG|MG/ML|MCG|UNT/ML|UNT|MG/ACTUAT|MCG/ACTUAT|MEQ|MEQ/ML|MG/HR|MCG/HR|MG/MG|%|BAU/ML|
[hp_X]|[hp_C]|ML/ML|MG/G|MMOL|MMOL/ML|MCG/ML|[IU]|[IU]/ML|MCG/MG|MG/L`);

export const STRENGTH_VALUES: Readonly<Record<string, readonly number[]>> = {
  MG: [0.1, 0.125, 0.2, 0.25, 0.5, 1, 2, 2.5, 3, 4, 5, 6.25, 7.5, 10, 12.5, 15, 20, 25, 30, 40, 50, 60, 75, 80, 100, 120, 125, 150, 160, 200, 240, 250, 300, 325, 400, 500, 600, 625, 750, 800, 850, 875, 1000],
  'MG/ML': [0.002, 0.01, 0.025, 0.05, 0.1, 0.2, 0.25, 0.4, 0.5, 1, 2, 2.5, 3, 4, 5, 6, 8, 10, 12, 20, 25, 30, 40, 50, 80, 100, 125, 200, 250],
  MCG: [5, 10, 12, 25, 50, 75, 88, 100, 112, 125, 137, 150, 175, 200, 250, 300, 400, 500, 1000],
  'UNT/ML': [1, 10, 40, 100, 200, 300, 1000, 2500, 5000, 10000, 20000, 25000],
  UNT: [250, 500, 1000, 2000, 5000, 10000, 50000, 100000, 1000000],
  'MG/ACTUAT': [0.05, 0.09, 0.1, 0.16, 0.2, 0.25, 0.5, 1],
  'MCG/ACTUAT': [4.5, 9, 18, 25, 44, 50, 90, 100, 110, 160, 200, 220, 250, 400, 500],
  MEQ: [2, 4, 8, 10, 15, 20, 40],
  'MEQ/ML': [0.02, 0.1, 0.2, 0.4, 1, 2, 4],
  'MG/HR': [0.1, 0.2, 0.4, 0.6, 0.8, 1, 2.5, 5],
  'MCG/HR': [5, 7.5, 10, 12, 15, 20, 25, 37.5, 50, 62.5, 75, 100],
  'MG/MG': [0.0005, 0.001, 0.005, 0.01, 0.02, 0.025, 0.05, 0.1],
  '%': [0.01, 0.025, 0.05, 0.1, 0.5, 1, 2, 2.5, 5, 10, 20],
  'BAU/ML': [100, 1000, 10000, 100000],
  '[hp_X]': [1, 2, 3, 4, 6, 12, 30],
  '[hp_C]': [1, 3, 5, 6, 7, 9, 12, 15, 30, 200],
  'ML/ML': [0.01, 0.1, 0.5, 0.9],
  'MG/G': [0.5, 1, 5, 10, 20, 50, 100],
  MMOL: [1, 2, 5, 10, 20],
  'MMOL/ML': [0.1, 0.5, 1, 2],
  'MCG/ML': [0.5, 1, 2, 5, 10, 20, 50, 100, 250, 500],
  '[IU]': [100, 200, 400, 500, 1000, 2000, 5000, 10000, 50000],
  '[IU]/ML': [1, 10, 40, 100, 300, 1000, 5000, 10000],
  'MCG/MG': [1, 2, 5, 10, 20, 50],
  'MG/L': [1, 5, 10, 50],
};

export const QUANTITIES = list(`1 ML|2 ML|5 ML|10 ML|20 ML|0.5 ML|0.4 ML|3 ML|100 ML|250 ML|500 ML|1000 ML|0.3 ML|0.8 ML|
1.5 ML|50 ML|30 ACTUAT|60 ACTUAT|120 ACTUAT|200 ACTUAT|72 HR|168 HR|24 HR|12 HR|15 GM|30 GM|60 GM|4 ML|0.6 ML|25 ML`);

export const BOX_SIZES = [30, 28, 10, 20, 100, 60, 14, 50, 90, 7, 5, 1, 56, 84, 98, 3, 2, 500, 1000, 12, 24, 40, 120, 6, 4, 8];

export const BRAND_SUFFIXES = list(`XR|Forte|Plus|Retard|HCT|Duo|Mite|24 Hour|ER|SR|CR|LA|DS|Junior|Max|Rapid|Depot|Novum|
Comp|Zoc|Uno|Neo|Protect|Mini|Sandoz|Ratiopharm|Teva|Mylan|Actavis|Hexal|Stada|Aristo|Zentiva|Accord|Aurobindo`);

export const COMPANY_SUFFIXES = list(`Pharma|Pharmaceuticals|Laboratories|Ltd|GmbH|AG|S.A.|S.p.A.|B.V.|Inc|Healthcare|
Generics|Labs|Medical|Arzneimittel GmbH|Pharma GmbH|Pharmaceuticals Ltd|Life Sciences|Biotech|Therapeutics|
Pharma AB|Oy|A/S|S.r.l.|Pharmaceutical Co., Ltd.|Limited|Pty Ltd|Sp. z o.o.|Kft.|SAS`);

// ------------------------------------------------------------------------------------------------
// LOINC

export const LOINC_COMPONENTS = list(`Glucose|Hemoglobin|Sodium|Potassium|Chloride|Creatinine|Urea nitrogen|Calcium|
Albumin|Protein|Bilirubin.total|Bilirubin.direct|Alkaline phosphatase|Alanine aminotransferase|
Aspartate aminotransferase|Cholesterol|Cholesterol in HDL|Cholesterol in LDL|Triglyceride|
Hemoglobin A1c/Hemoglobin.total|Leukocytes|Erythrocytes|Platelets|Hematocrit|Erythrocyte mean corpuscular volume|
Erythrocyte mean corpuscular hemoglobin|Neutrophils|Lymphocytes|Monocytes|Eosinophils|Basophils|Thyrotropin|
Thyroxine.free|Triiodothyronine|Ferritin|Iron|Transferrin|Cobalamin|Folate|25-Hydroxyvitamin D3|Magnesium|
Phosphate|Urate|Lactate|Lactate dehydrogenase|Creatine kinase|Troponin I.cardiac|Troponin T.cardiac|
Natriuretic peptide B|C reactive protein|Erythrocyte sedimentation rate|Prothrombin time|INR|aPTT|Fibrinogen|
Fibrin D-dimer|Amylase|Triacylglycerol lipase|Gamma glutamyl transferase|Carbon dioxide|Anion gap|Osmolality|pH|
Oxygen|Bicarbonate|Base excess|Ammonia|Cortisol|Insulin|C peptide|Prolactin|Testosterone|Estradiol|Progesterone|
Follitropin|Lutropin|Choriogonadotropin.beta subunit|Prostate specific Ag|Carcinoembryonic Ag|Alpha-1-Fetoprotein|
Cancer Ag 125|Cancer Ag 19-9|IgA|IgG|IgM|IgE|Complement C3|Complement C4|Rheumatoid factor|Nuclear Ab|
DNA double strand Ab|Cyclic citrullinated peptide Ab|Hepatitis B virus surface Ag|Hepatitis B virus core Ab|
Hepatitis C virus Ab|HIV 1+2 Ab|HIV 1 RNA|Cytomegalovirus IgG Ab|Epstein Barr virus capsid IgG Ab|
Rubella virus IgG Ab|Measles virus IgG Ab|Varicella zoster virus IgG Ab|Toxoplasma gondii IgG Ab|
Treponema pallidum Ab|Chlamydia trachomatis DNA|Neisseria gonorrhoeae DNA|SARS-CoV-2 RNA|Influenza virus A RNA|
Streptococcus pyogenes Ag|Bacteria identified|Yeast|Mucus|Casts|Crystals|Ketones|Nitrite|Leukocyte esterase|
Urobilinogen|Specific gravity|Appearance|Color|Albumin/Creatinine|Protein/Creatinine|Digoxin|Vancomycin|
Gentamicin|Lithium|Phenytoin|Carbamazepine|Valproate|Tacrolimus|Cyclosporine|Ethanol|Amphetamines|Cocaine|
Opiates|Cannabinoids|Benzodiazepines|Barbiturates|Methadone|Fentanyl|Buprenorphine|Oxycodone|Acetaminophen|
Salicylates|Lead|Mercury|Arsenic|Zinc|Copper|Selenium|Aldosterone|Renin|Parathyrin.intact|Calcitonin|Somatotropin|
Insulin-like growth factor-I|Corticotropin|Dehydroepiandrosterone sulfate|Homocysteine|Lipoprotein a|
Apolipoprotein B|Apolipoprotein A-I|Haptoglobin|Reticulocytes|Schistocytes|Blasts|Myelocytes|Metamyelocytes|
Neutrophils.band form|Nucleated erythrocytes|Immature granulocytes|Hemoglobin F|Hemoglobin S|
Glucose-6-Phosphate dehydrogenase|Cholinesterase|Antithrombin|Protein C|Protein S|Coagulation factor VIII activity|
Coagulation factor IX activity|von Willebrand factor Ag|Heparin induced platelet Ab|Blood group antibody screen|
ABO group|Rh type|Direct antiglobulin test.poly specific reagent|Cells counted|Karyotype|Microalbumin|Bacteria|
Epithelial cells|Hyaline casts|Granular casts|Calcium oxalate crystals|Trichomonas vaginalis|Clue cells|
Ova and parasites identified|Occult blood|Fecal fat|Elastase.pancreatic|Calprotectin|Alpha 1 antitrypsin|
Ceruloplasmin|Beta-2-Microglobulin|Kappa light chains.free|Lambda light chains.free|Interpretation|Specimen source|
Procalcitonin|Interleukin 6|Ferritin.glycosylated|Anti-Mullerian hormone|Sex hormone binding globulin|Androstenedione`);

export const LOINC_PROPERTIES: ReadonlyArray<readonly [string, string, string]> = [
  // [long name bracket text, short name suffix, property code]
  ['Mass/volume', 'mCnc', 'MCnc'], ['Moles/volume', 'sCnc', 'SCnc'], ['Presence', 'PrThr', 'PrThr'],
  ['Units/volume', 'ACnc', 'ACnc'], ['#/volume', 'NCnc', 'NCnc'], ['Enzymatic activity/volume', 'cCnc', 'CCnc'],
  ['Volume Fraction', 'VFr', 'VFr'], ['Mass/time', 'mRate', 'MRat'], ['Ratio', 'Rto', 'Rto'], ['Titer', 'Titr', 'Titr'],
  ['Interpretation', 'Imp', 'Imp'], ['Identifier', 'ID', 'Prid'], ['Type', 'Type', 'Type'], ['Score', 'Score', 'Score'],
  ['Time', 'Time', 'Time'], ['Length', 'Len', 'Len'], ['Mass', 'Mass', 'Mass'], ['Volume', 'Vol', 'Vol'],
  ['Percentile', 'Pctl', 'Pctl'], ['Entitic volume', 'EntVol', 'EntVol'], ['Entitic mass', 'EntMass', 'EntMass'],
  ['Mass Ratio', 'MRto', 'MRto'], ['Moles/time', 'sRate', 'SRat'], ['Units/time', 'ARat', 'ARat'],
  ['Pressure', 'Pres', 'Pres'], ['Velocity', 'Vel', 'Vel'], ['Rate', 'Rate', 'NRat'], ['#/area', 'Naric', 'Naric'],
  ['Mass/mass', 'mCnt', 'MCnt'], ['Moles/mass', 'sCnt', 'SCnt'], ['Number Fraction', 'NFr', 'NFr'],
  ['Mass fraction', 'MFr', 'MFr'], ['Arbitrary concentration', 'ACnc', 'ACnc'], ['Temperature', 'Temp', 'Temp'],
];

export const LOINC_SYSTEMS: ReadonlyArray<readonly [string, string]> = [
  ['Serum or Plasma', 'SerPl'], ['Blood', 'Bld'], ['Urine', 'Ur'], ['Serum', 'Ser'], ['Plasma', 'Plas'],
  ['Cerebral spinal fluid', 'CSF'], ['Specimen', 'Spec'], ['Stool', 'Stl'], ['Arterial blood', 'BldA'],
  ['Venous blood', 'BldV'], ['Capillary blood', 'BldC'], ['24 hour Urine', '24h Ur'], ['Body fluid', 'Fld'],
  ['Saliva', 'Saliva'], ['Sputum', 'Spt'], ['Tissue', 'Tiss'], ['Bone marrow', 'Marrow'], ['Amniotic fluid', 'Amn'],
  ['Synovial fluid', 'Snv'], ['Pleural fluid', 'Plr'], ['Peritoneal fluid', 'Prt'], ['Semen', 'Smn'], ['Hair', 'Hair'],
  ['Breath', 'Breath'], ['Cervix', 'Cvx'], ['Vaginal fluid', 'Vag'], ['Urethra', 'Urth'], ['Nasopharynx', 'Nph'],
  ['Throat', 'Thrt'], ['Wound', 'Wnd'], ['Skin', 'Skin'], ['Dried blood spot', 'DBS'], ['Cord blood', 'BldCo'],
  ['Red Blood Cells', 'RBC'], ['Platelet poor plasma', 'PPP'], ['Respiratory specimen', 'Respiratory'],
  ['Isolate', 'Islt'], ['Lower respiratory specimen', 'Lower resp'], ['Upper respiratory specimen', 'Upper resp'],
  ['Nose', 'Nose'], ['Unspecified specimen', 'XXX'], ['Body fluid.unspecified', 'Fld'], ['Calculus', 'Calculus'],
];

export const LOINC_METHODS = list(`by Automated count|by Manual count|by Immunoassay|
by Probe and target amplification method|by Calculation|by Electrophoresis|by Flow cytometry (FC)|by Culture|
by Microscopy|by Test strip|by Refractometry|by High resolution mass spectrometry|by Confirmatory method|
by Screen method|by Immunofluorescence|by Agglutination|by Nephelometry|by Spectrophotometry|by Chromatography|
by Molecular genetics method|by Sequencing|by Estimated|by Enzymatic method|by Ion-selective membrane electrode|
by HPLC|by LC/MS/MS|by GC/MS|by Immunoblot|by Latex agglutination|by Rapid immunoassay|by Coagulation assay|
by Visual|by Light microscopy|by Gram stain|by Acid fast stain|by CLIA|by ELISA|by Westergren method|
by Non-probe-based NAA|by NAA with probe detection|by Creatinine-based formula (CKD-EPI 2021)|by Oximetry|
by Direct assay|by Indirect assay|by Detection limit <= 0.05 mg/L|by High sensitivity method|by Cockcroft-Gault formula`);

export const LOINC_CLASS_NAMES = list(`CHEM|HEM/BC|MICRO|SERO|DRUG/TOX|UA|MOLPATH|ALLERGY|BLDBK|CELLMARK|PATH|FERT|COAG|
ABXBACT|SPEC|CYTO|HLA|CHAL|PANEL.CHEM|PANEL.HEM/BC|PANEL.MICRO|PANEL.UA|CLIN|PULM|CARD.PROF|H&P.HX|H&P.PX|
SURVEY.PROMIS|SURVEY.PHQ|SURVEY.GNHLTH|SURVEY.NURSE|SURVEY.MDS|SURVEY.OASIS|DOC.ONTOLOGY|RAD|ATTACH|VITALS|OB.US|
DENT|EYE|EKG|NR STATS|PHENX|GEN|MISC`);

export const LOINC_HIERARCHY_HEADS = list(`Laboratory|Chemistry|Hematology & Coagulation|Microbiology|Serology|
Drug/Toxicology|Urinalysis|Molecular pathology|Allergy|Blood bank|Cell markers|Pathology|Fertility|Clinical|Survey|
Document ontology|Vital signs|Radiology|Cardiology|Pulmonary|Obstetrics|Ophthalmology|Dental|Genetics|Physical exam|
History|Nursing|Functional status|Social determinants|Medication|Immunology|Endocrinology|Nutrition|Toxicology`);

export const ANSWERS = list(`Positive|Negative|Not detected|Detected|Yes|No|Unknown|Normal|Abnormal|Never|Rarely|
Sometimes|Often|Always|Not at all|Several days|More than half the days|Nearly every day|Mild|Moderate|Severe|None|
Other|Reactive|Non-reactive|Indeterminate|Present|Absent|Trace|1+|2+|3+|4+|Clear|Cloudy|Turbid|Yellow|Amber|Red|
Brown|Very satisfied|Satisfied|Neutral|Dissatisfied|Strongly agree|Agree|Disagree|Strongly disagree|
Current every day smoker|Former smoker|Never smoker|Light tobacco smoker|Heavy tobacco smoker|Single|Married|
Divorced|Widowed|Employed|Unemployed|Retired|Student|Excellent|Very good|Good|Fair|Poor|Male|Female|Declined to answer|
Not applicable|Low|High|Within normal limits|Borderline|Equivocal|Inconclusive|Susceptible|Intermediate|Resistant`);

export const SURVEY_STEMS = list(`How often do you|In the past 7 days, how often did you|Over the last 2 weeks, how often have you been bothered by|
Have you ever been told by a doctor that you have|During the past 4 weeks, how much did|Do you currently|
In the past 12 months, did you|How would you rate your|How much difficulty do you have|Are you able to|
In the past month, how often have you felt|Does your health now limit you in|How many times in the past year have you|
Within the past 12 months, we worried whether|Are you worried that in the next 2 months|What is your|
How confident are you|How satisfied are you with|During the past week, how much of the time`);

export const SURVEY_OBJECTS = list(`feeling down, depressed, or hopeless|little interest or pleasure in doing things|trouble falling asleep|
feeling tired or having little energy|poor appetite or overeating|trouble concentrating|climbing several flights of stairs|
walking more than a mile|bathing or dressing yourself|lifting or carrying groceries|doing vigorous activities|
your physical health|your emotional problems|pain interfering with your normal work|our food would run out|
you will lose your housing|getting transportation to medical appointments|paying for basic needs|your overall health|
your sleep quality|smoking cigarettes|drinking alcohol|using recreational drugs|exercising at least 30 minutes|
eating fruits and vegetables|taking your medications as prescribed|feeling nervous, anxious, or on edge|
not being able to stop or control worrying|feeling afraid as if something awful might happen|feeling lonely|
having someone to help you if you were confined to bed|managing your daily activities|your memory|hearing|vision`);

export const INSTRUMENTS = list(`PHQ-9|PHQ-2|GAD-7|PROMIS-29|PROMIS-10|SF-36|AUDIT-C|PRAPARE|AHC HRSN|EQ-5D-5L|Morse Fall Scale|
Braden Scale|Edinburgh Postnatal Depression Scale|Hospital Anxiety and Depression Scale|Kansas City Cardiomyopathy Questionnaire|
Oswestry Disability Index|WOMAC|KOOS|HOOS|Barthel Index|Katz ADL|Lawton IADL|MoCA|MMSE|CAGE|DAST-10|PCL-5|
Columbia Suicide Severity Rating Scale|OASIS-E|MDS 3.0|Minimum Data Set|Hunger Vital Sign|Pain Assessment in Advanced Dementia`);

// ------------------------------------------------------------------------------------------------
// Genomics

export const GENES = list(`TP53|BRAF|KRAS|EGFR|BRCA1|BRCA2|PIK3CA|ALK|ERBB2|NRAS|APC|PTEN|MET|RET|ROS1|KIT|PDGFRA|
IDH1|IDH2|FGFR2|FGFR3|NTRK1|NTRK2|NTRK3|CDKN2A|RB1|VHL|NF1|NF2|MLH1|MSH2|MSH6|PMS2|ATM|CHEK2|PALB2|STK11|SMAD4|
CTNNB1|ARID1A|KMT2D|JAK2|MPL|CALR|FLT3|NPM1|DNMT3A|TET2|ASXL1|SF3B1|EZH2|MYC|MYCN|BCL2|CCND1|CDK4|MDM2|ESR1|AR|
TERT|POLE|HRAS|MAP2K1|ERBB3|FBXW7|NOTCH1|SMARCB1|CFTR|HBB|HFE|F5|F2|MTHFR|LDLR|APOB|PCSK9|MYH7|MYBPC3|SCN5A|
KCNQ1|KCNH2|RYR1|DMD|SMN1|FMR1|HTT|GBA|LRRK2|SNCA|APOE|PSEN1|TTR|G6PD|CYP2C19|CYP2D6|CYP2C9|VKORC1|SLCO1B1|
TPMT|NUDT15|DPYD|UGT1A1|HLA-B|IFNL3|CYP3A5|NAT2|ABCB1`);

export const AMINO_ACIDS = list(`Ala|Arg|Asn|Asp|Cys|Gln|Glu|Gly|His|Ile|Leu|Lys|Met|Phe|Pro|Ser|Thr|Trp|Tyr|Val`);

// ------------------------------------------------------------------------------------------------
// Classifications

export const ATC_FIRST_LEVEL: ReadonlyArray<readonly [string, string]> = [
  ['A', 'ALIMENTARY TRACT AND METABOLISM'], ['B', 'BLOOD AND BLOOD FORMING ORGANS'], ['C', 'CARDIOVASCULAR SYSTEM'],
  ['D', 'DERMATOLOGICALS'], ['G', 'GENITO URINARY SYSTEM AND SEX HORMONES'],
  ['H', 'SYSTEMIC HORMONAL PREPARATIONS, EXCL. SEX HORMONES AND INSULINS'], ['J', 'ANTIINFECTIVES FOR SYSTEMIC USE'],
  ['L', 'ANTINEOPLASTIC AND IMMUNOMODULATING AGENTS'], ['M', 'MUSCULO-SKELETAL SYSTEM'], ['N', 'NERVOUS SYSTEM'],
  ['P', 'ANTIPARASITIC PRODUCTS, INSECTICIDES AND REPELLENTS'], ['R', 'RESPIRATORY SYSTEM'], ['S', 'SENSORY ORGANS'],
  ['V', 'VARIOUS'],
];

export const PHARMACOLOGIC_CLASSES = list(`ANTIBACTERIALS FOR SYSTEMIC USE|BETA BLOCKING AGENTS|
CALCIUM CHANNEL BLOCKERS|AGENTS ACTING ON THE RENIN-ANGIOTENSIN SYSTEM|LIPID MODIFYING AGENTS|DIURETICS|
DRUGS USED IN DIABETES|ANALGESICS|PSYCHOLEPTICS|PSYCHOANALEPTICS|ANTIEPILEPTICS|ANTI-PARKINSON DRUGS|
ANTIHISTAMINES FOR SYSTEMIC USE|DRUGS FOR OBSTRUCTIVE AIRWAY DISEASES|CORTICOSTEROIDS FOR SYSTEMIC USE|
ANTITHROMBOTIC AGENTS|ANTIANEMIC PREPARATIONS|VITAMINS|MINERAL SUPPLEMENTS|ANTINEOPLASTIC AGENTS|
IMMUNOSUPPRESSANTS|ENDOCRINE THERAPY|ANTIVIRALS FOR SYSTEMIC USE|ANTIMYCOTICS FOR SYSTEMIC USE|
ANTIINFLAMMATORY AND ANTIRHEUMATIC PRODUCTS|MUSCLE RELAXANTS|ANTIGOUT PREPARATIONS|DRUGS FOR TREATMENT OF BONE DISEASES|
ANESTHETICS|OPHTHALMOLOGICALS|OTOLOGICALS|NASAL PREPARATIONS|THROAT PREPARATIONS|COUGH AND COLD PREPARATIONS|
DRUGS FOR ACID RELATED DISORDERS|ANTIEMETICS AND ANTINAUSEANTS|BILE AND LIVER THERAPY|LAXATIVES|
ANTIDIARRHEALS, INTESTINAL ANTIINFLAMMATORY/ANTIINFECTIVE AGENTS|SEX HORMONES AND MODULATORS OF THE GENITAL SYSTEM|
UROLOGICALS|THYROID THERAPY|PITUITARY AND HYPOTHALAMIC HORMONES AND ANALOGUES|CARDIAC THERAPY|ANTIHYPERTENSIVES|
VASOPROTECTIVES|PERIPHERAL VASODILATORS|EMOLLIENTS AND PROTECTIVES|ANTIPSORIATICS|ANTIBIOTICS AND CHEMOTHERAPEUTICS FOR DERMATOLOGICAL USE|
ANTISEPTICS AND DISINFECTANTS|MEDICATED DRESSINGS|ANTI-ACNE PREPARATIONS|ALL OTHER THERAPEUTIC PRODUCTS|
DIAGNOSTIC AGENTS|CONTRAST MEDIA|RADIOPHARMACEUTICALS|IMMUNE SERA AND IMMUNOGLOBULINS|VACCINES|
ANTIMYCOBACTERIALS|ANTHELMINTICS|ANTIPROTOZOALS|ECTOPARASITICIDES|BLOOD SUBSTITUTES AND PERFUSION SOLUTIONS|
ANTIHEMORRHAGICS|OTHER NERVOUS SYSTEM DRUGS|ANTIOBESITY PREPARATIONS|DIGESTIVES, INCL. ENZYMES|
STOMATOLOGICAL PREPARATIONS|TONICS|APPETITE STIMULANTS|GENERAL NUTRIENTS`);

export const PHARMACOLOGIC_SUBCLASSES = list(`Beta blocking agents, selective|Beta blocking agents, non-selective|
Dihydropyridine derivatives|ACE inhibitors, plain|Angiotensin II receptor blockers (ARBs), plain|
HMG CoA reductase inhibitors|Biguanides|Sulfonylureas|Dipeptidyl peptidase 4 (DPP-4) inhibitors|
Sodium-glucose co-transporter 2 (SGLT2) inhibitors|Glucagon-like peptide-1 (GLP-1) analogues|Insulins and analogues|
Proton pump inhibitors|H2-receptor antagonists|Selective serotonin reuptake inhibitors|
Other antidepressants|Benzodiazepine derivatives|Atypical antipsychotics|Opioid analgesics|Anilides|
Propionic acid derivatives|Acetic acid derivatives|Coxibs|Glucocorticoids|Vitamin K antagonists|
Direct factor Xa inhibitors|Heparin group|Platelet aggregation inhibitors excl. heparin|Penicillins with extended spectrum|
Beta-lactamase resistant penicillins|First-generation cephalosporins|Third-generation cephalosporins|Carbapenems|
Macrolides|Fluoroquinolones|Tetracyclines|Aminoglycosides|Glycopeptide antibacterials|Nucleoside and nucleotide reverse transcriptase inhibitors|
Protease inhibitors|Integrase inhibitors|Neuraminidase inhibitors|Triazole derivatives|Imidazole derivatives|
Monoclonal antibodies|Protein kinase inhibitors|Platinum compounds|Taxanes|Anthracyclines|Antimetabolites|
Alkylating agents|Aromatase inhibitors|Anti-estrogens|Gonadotropin releasing hormone analogues|
Interleukin inhibitors|Tumor necrosis factor alpha (TNF-) inhibitors|Calcineurin inhibitors|Selective immunosuppressants|
Bisphosphonates|Xanthine oxidase inhibitors|Dopa and dopa derivatives|Dopamine agonists|Anticholinesterases|
Adrenergics, inhalants|Anticholinergics, inhalants|Leukotriene receptor antagonists|Piperazine derivatives|
Thiazides, plain|Sulfonamides, plain|Aldosterone antagonists|Potassium supplements|Calcium supplements|
Vitamin D and analogues|Iron bivalent, oral preparations|Folic acid and derivatives|Local anesthetics, amides|
General anesthetics, other|Antiemetics, serotonin (5HT3) antagonists|Prostaglandin analogues|Carbonic anhydrase inhibitors|
Alpha-adrenoreceptor antagonists|Testosterone-5-alpha reductase inhibitors|Drugs used in erectile dysfunction|
Progestogens and estrogens, fixed combinations|Thyroid hormones|Other antiepileptics|Fatty acid derivatives|
Carboxamide derivatives|Triptans|Combinations|Other agents|Various|Plain`);

export const VISITS: ReadonlyArray<readonly [number, string, string]> = [
  [9201, 'Inpatient Visit', 'IP'], [9202, 'Outpatient Visit', 'OP'], [9203, 'Emergency Room Visit', 'ER'],
  [262, 'Emergency Room and Inpatient Visit', 'ERIP'], [581476, 'Home Visit', 'HH'], [581477, 'Office Visit', 'OV'],
  [581478, 'Ambulance Visit', 'AMB'], [581479, 'Pharmacy visit', 'PH'], [581458, 'Pharmacy visit', 'PHARM'],
  [32036, 'Laboratory Visit', 'LAB'], [38004193, 'Case Management Visit', 'CM'], [42898160, 'Non-hospital institution Visit', 'NI'],
  [32037, 'Intensive Care', 'ICU'], [32760, 'Case Management Visit', 'CMV'], [32761, 'Telehealth', 'TELE'],
  [722455, 'Observation Room', 'OBS'], [5083, 'Telehealth', 'TH'], [8870, 'Emergency Room - Hospital', '23'],
  [8717, 'Inpatient Hospital', '21'], [8756, 'Outpatient Hospital', '22'],
];

export const RACES: ReadonlyArray<readonly [number, string, string]> = [
  [8527, 'White', '5'], [8516, 'Black or African American', '3'], [8515, 'Asian', '2'],
  [8657, 'American Indian or Alaska Native', '1'], [8557, 'Native Hawaiian or Other Pacific Islander', '4'],
  [38003572, 'American Indian', '1.01'], [38003573, 'Alaska Native', '1.02'], [38003574, 'Asian Indian', '2.01'],
  [38003575, 'Bangladeshi', '2.02'], [38003576, 'Bhutanese', '2.03'], [38003577, 'Burmese', '2.04'],
  [38003578, 'Cambodian', '2.05'], [38003579, 'Chinese', '2.06'], [38003580, 'Taiwanese', '2.07'],
  [38003581, 'Filipino', '2.08'], [38003582, 'Hmong', '2.09'], [38003583, 'Indonesian', '2.10'],
  [38003584, 'Japanese', '2.11'], [38003585, 'Korean', '2.12'], [38003586, 'Laotian', '2.13'],
  [38003587, 'Malaysian', '2.14'], [38003598, 'African American', '3.01'], [38003599, 'African', '3.02'],
  [38003600, 'Bahamian', '3.03'],
];

/** Well-known disease names that appear as heads of condition subtrees (with their qualified children). */
export const NAMED_DISEASES = list(`Myocardial infarction|Chronic obstructive pulmonary disease|Type 2 diabetes mellitus|
Type 1 diabetes mellitus|Essential hypertension|Chronic kidney disease|Congestive heart failure|Asthma|Atrial fibrillation|
Pneumonia|Migraine|Osteoarthritis|Rheumatoid arthritis|Depressive disorder|Anxiety disorder|Alzheimer's disease|
Parkinson's disease|Epilepsy|Sepsis|Urinary tract infection|Gastroesophageal reflux disease|Hypothyroidism|Hyperlipidemia|
Obesity|Iron deficiency anemia|Cerebral infarction|Coronary arteriosclerosis|Heart failure|Hypertensive disorder|
Diabetes mellitus|Bronchiectasis|Psoriasis|Eczema|Crohn's disease|Ulcerative colitis|Cirrhosis of liver|Gout|Osteoporosis|
Schizophrenia|Bipolar disorder|Multiple sclerosis|Systemic lupus erythematosus|Sickle cell anemia|Cystic fibrosis|
Tuberculosis|Hepatitis C|HIV infection|COVID-19|Influenza|Malaria|Cellulitis|Appendicitis|Cholelithiasis|Pancreatitis|
Deep venous thrombosis|Pulmonary embolism|Angina pectoris|Cardiomyopathy|Glaucoma|Cataract|Macular degeneration|
Otitis media|Sinusitis|Tonsillitis|Dermatitis|Acne vulgaris|Benign prostatic hyperplasia|Endometriosis|Preeclampsia|
Gestational diabetes mellitus|Anorexia nervosa|Attention deficit hyperactivity disorder|Autism spectrum disorder|
Dementia|Delirium|Insomnia|Sleep apnea|Low back pain|Sciatica|Carpal tunnel syndrome|Fibromyalgia|Lyme disease`);
