import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('crd-warnings');
