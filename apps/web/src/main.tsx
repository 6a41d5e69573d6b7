import './styles/global.css';
import { startApp } from './start/app';
import { startVisit } from './start/visit';

startVisit();
startApp();
