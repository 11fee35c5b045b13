import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('stored-objects');
