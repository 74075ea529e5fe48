export { ContactPage as Contact, PolicyPage as Policy, SupportPage as Support } from './InfoPage';
