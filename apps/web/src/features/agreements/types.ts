/** An agreement page's text: shown at its route (spec §2) and linked from the forms. */
export interface AgreementSection {
  heading: string;
  paragraphs: string[];
}

export interface AgreementText {
  title: string;
  version: string;
  effectiveDate: string;
  intro: string;
  sections: AgreementSection[];
}
